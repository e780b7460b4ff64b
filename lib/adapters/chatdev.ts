import { addChatDevEvents } from "./chatdev-events";
import { isoLocal, numbersIn, readChatDevLog, tableRows, type LogEntry } from "./chatdev-log";
import { AdaptedTraceBuilder, shortHash, slug } from "./emit";
import { provenanceOf, stem } from "./provenance";
import { AdapterInputError, type AdaptedTrace } from "./types";

/**
 * One ChatDev run (a WareHouse folder) -> one trace, from its log plus the
 * folder's meta.txt and ChatChainConfig.json when present. Times are real:
 * t is seconds since the first log line. No labels exist for these runs, so
 * E1 is null; the run's cost and counters (Post Info) are kept in metadata.
 *
 * A run gets one trace id and one task whether its folder or its lone log is
 * read (CLI, upload, API): the id is the log's own name, the task is read
 * from the log first, then meta.txt, then the log's name.
 */

export interface ChatDevRun {
  /** the run folder (or the log itself when adapting a lone log) */
  path: string;
  logName: string;
  log: string;
  meta?: string | undefined;
  chatChainConfig?: string | undefined;
  /** names of the files in the folder, kept in the provenance */
  files?: string[] | undefined;
}

export function adaptChatDevRun(run: ChatDevRun): AdaptedTrace {
  const entries = readChatDevLog(run.log);
  const first = entries[0];
  if (!first) throw new AdapterInputError("chatdev", run.path, ["no [YYYY-DD-MM HH:MM:SS INFO] log lines"]);
  if (!entries.some((e) => e.kind === "turn" || e.kind === "start")) {
    throw new AdapterInputError("chatdev", run.path, ["no role-play turns (`Role: **A<->B on : Phase, turn N**` or `[N] AI Assistant (Role):`)"]);
  }
  const meta = run.meta !== undefined ? metaSections(run.meta) : {};
  const task = taskFromLog(entries) || meta.Task || projectName(run.logName);
  const b = new AdaptedTraceBuilder();
  addChatDevEvents(b, entries, first.time, task);

  const postInfo = lastOf(entries, "post_info") ?? lastOf(entries, "software_info");
  const counters = postInfo ? numbersIn(postInfo.body) : {};
  const trace = b.build(
    {
      trace_id: `chatdev-${slug(stem(run.logName))}`,
      task_id: `chatdev-${shortHash(task.trim())}`,
      system: "ChatDev",
      topology: "mixed",
      rewards: {},
      metadata: {
        source: { ...provenanceOf(run.path, "chatdev", "ChatDev"), log: run.logName, ...(run.files ? { files: run.files } : {}) },
        topology_detail: "chain",
        task,
        started_at: isoLocal(first.time),
        time_zone: "unknown (log local time)",
        ...(Object.keys(meta).length > 0 ? { meta } : {}),
        ...(Object.keys(counters).length > 0 ? { post_info: counters } : {}),
        ...(run.chatChainConfig !== undefined ? { chat_chain_config: parseJson(run.chatChainConfig) } : {}),
      },
    },
    { clock: "seconds" },
  );
  if (counters.cost !== undefined && counters.cost > 0) trace.costs.cost_usd = counters.cost;
  return trace;
}

/** meta.txt: `Section:` lines followed by their text, separated by blank lines. */
export function metaSections(text: string): Record<string, string> {
  const sections: Record<string, string> = {};
  let key: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Z][A-Za-z_]*):\s*$/.exec(line);
    if (m) key = m[1]!;
    else if (key !== null) sections[key] = `${sections[key] ?? ""}\n${line}`;
  }
  for (const k of Object.keys(sections)) sections[k] = sections[k]!.trim();
  return sections;
}

function taskFromLog(entries: readonly LogEntry[]): string | undefined {
  for (const e of entries) {
    if (e.kind === "task_prompt" && e.body) return e.body;
    const fromTable = e.kind === "phase" ? tableRows(e.body).task_prompt : undefined;
    if (fromTable) return fromTable;
    const fromPreprocessing = e.kind === "run_start" ? /\*\*task_prompt\*\*: (.+)/.exec(e.body)?.[1] : undefined;
    if (fromPreprocessing) return fromPreprocessing.trim();
    const fromArgs = /Namespace\(task=(['"])(.+?)\1/.exec(e.head)?.[2];
    if (fromArgs) return fromArgs;
    // logs without a preprocessing block: the task as the chat prompt quotes it
    const fromPrompt = /^Task: "(.+)"\.?$/m.exec(e.body)?.[1] ?? /Here is a new customer's task: (.+?)\.?$/m.exec(e.body)?.[1];
    if (fromPrompt) return fromPrompt.trim();
  }
  return undefined;
}

/** WareHouse logs are named like their folder, <Project>_<Organisation>_<timestamp>.log (the oldest only <timestamp>.log). */
function projectName(logName: string): string {
  return stem(logName).split("_")[0] || stem(logName);
}

function lastOf(entries: readonly LogEntry[], kind: LogEntry["kind"]): LogEntry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.kind === kind) return entries[i];
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
