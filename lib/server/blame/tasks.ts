/**
 * The CPU-heavy work of attribution, as tasks a child process (or this one)
 * runs: the report over labelled traces, training a learned model, ranking a
 * trace. Pure: no database, no server imports (report-child.ts runs it).
 */
import { methodByName, type BlameInput, type BlameRanking, type LabelledTrace, type LearnedModel } from "../../blame";
import { attributionReport, type Report, type ReportInput } from "../../blame/report";

export type Task =
  | { task: "report"; input: ReportInput }
  | { task: "train"; method: string; labelled: readonly LabelledTrace[] }
  | { task: "rank"; method: string; model: LearnedModel | null; input: BlameInput };

export type TaskResult<T extends Task> = T extends { task: "report" } ? Report : T extends { task: "train" } ? LearnedModel : BlameRanking;

export function runTask<T extends Task>(t: T, onProgress: (share: number) => void = () => {}): TaskResult<T> {
  if (t.task === "report") return attributionReport(t.input, onProgress) as TaskResult<T>;
  const method = methodByName(t.method);
  if (!method) throw new Error(`unknown attribution method ${t.method}`);
  if (t.task === "train") {
    if (!method.learned) throw new Error(`${t.method} does not learn`);
    return method.train(t.labelled) as TaskResult<T>;
  }
  if (method.learned) {
    if (!t.model) throw new Error(`${t.method} needs a model`);
    return method.rank(t.model, t.input) as TaskResult<T>;
  }
  return method.rank(t.input) as TaskResult<T>;
}
