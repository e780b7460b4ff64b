/**
 * The CPU-heavy work of attribution, as tasks a child process (or this one)
 * runs: the report over labelled traces, training a learned model, ranking a
 * trace. Pure: no database, no server imports (report-child.ts runs it).
 */
import { methodByName, type BlameInput, type BlameRanking, type LabelledTrace, type LearnedModel } from "../../blame";
import { attributionReport, type Report, type ReportHelpers, type ReportInput } from "../../blame/report";

export type Task =
  | { task: "report"; input: ReportInput }
  | { task: "train"; method: string; labelled: readonly LabelledTrace[] }
  /** `keep`: only the first `keep` events of the ranking come back (with `total_events`), so that a big trace's ranking does not cross to the parent whole */
  | { task: "rank"; method: string; model: LearnedModel | null; input: BlameInput; keep?: number };

/** A ranking as a task returns it: `total_events` is how many events it ranked (more than `events` holds when cut to `keep`). */
export type RankResult = BlameRanking & { total_events: number };

export type TaskResult<T extends Task> = T extends { task: "report" } ? Report : T extends { task: "train" } ? LearnedModel : RankResult;

/** `helpers`: threads that compute parts of a report beside this one (report-threads.ts). */
export function runTask<T extends Task>(t: T, onProgress: (share: number) => void = () => {}, helpers?: ReportHelpers): TaskResult<T> {
  if (t.task === "report") return attributionReport(t.input, onProgress, helpers) as TaskResult<T>;
  const method = methodByName(t.method);
  if (!method) throw new Error(`unknown attribution method ${t.method}`);
  if (t.task === "train") {
    if (!method.learned) throw new Error(`${t.method} does not learn`);
    return method.train(t.labelled) as TaskResult<T>;
  }
  if (method.learned && !t.model) throw new Error(`${t.method} needs a model`);
  const ranking = method.learned ? method.rank(t.model!, t.input) : method.rank(t.input);
  const events = t.keep === undefined ? ranking.events : ranking.events.slice(0, t.keep);
  return { ...ranking, events, total_events: ranking.events.length } as TaskResult<T>;
}
