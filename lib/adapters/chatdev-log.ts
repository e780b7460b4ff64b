/**
 * Reads a ChatDev log into classified entries. Three generations of the log
 * format occur in the WareHouse runs, and all three are read:
 * - 2023-06 ("AgentTech"): `[N] AI Assistant (Role):` turns and
 *   `terminated the chat.` lines only;
 * - 2023-07: adds `PhaseType: PhaseType.X`, `AI User (Role):` chat starts,
 *   `... sys message:` lines and `[OpenAI_Usage_Info]` blocks;
 * - 2023-08 on: `System: **[chatting]**` phase tables,
 *   `Role: **A<->B on : Phase, turn N**` turns, `**[Seminar Conclusion]**`,
 *   usage Send/Receive pairs, human feedback and `**[Post Info]**`.
 * Every entry starts with `[YYYY-DD-MM HH:MM:SS LEVEL]`: the date is
 * year-day-month (ChatDev's own format string), e.g. 2023-25-08 is 25 August.
 */

export type EntryKind =
  | "phase" | "start" | "turn" | "terminated" | "usage_send" | "usage" | "conclusion"
  | "human_prompt" | "human" | "execute" | "test_report" | "post_info" | "software_info"
  | "system_message" | "task_prompt" | "run_start" | "run_end" | "noise" | "other";

export interface LogEntry {
  kind: EntryKind;
  /** seconds since the Unix epoch, reading the log's local time as UTC (the log has no zone) */
  time: number;
  /** the speaking role, for start / turn / terminated / system_message */
  speaker?: string;
  /** "assistant" or "user" side of the role-play, where the format says */
  side?: "assistant" | "user";
  /** the role pair and phase named by a 2023-08+ turn header */
  pair?: [string, string];
  phase?: string;
  turn?: number;
  head: string;
  body: string;
}

const ENTRY_LINE = /^\[(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) [A-Z]+\] ?(.*)$/;
/** Terminal colour codes (ESC [ 32 m) that the 2023-06/07 logs contain. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** `YYYY-DD-MM HH:MM:SS` parts to epoch seconds (UTC reading of the local time). */
export function chatDevTime(year: number, day: number, month: number, h: number, m: number, s: number): number {
  return Date.UTC(year, month - 1, day, h, m, s) / 1000;
}

/** The first timestamp of a log as an ISO string without zone, e.g. "2023-08-25T09:35:59". */
export function isoLocal(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

export function looksLikeChatDevLog(firstBytes: string): boolean {
  return ENTRY_LINE.test(firstBytes.replace(/^\uFEFF/, "").split("\n", 1)[0] ?? "");
}

export function readChatDevLog(text: string): LogEntry[] {
  const entries: LogEntry[] = [];
  let current: { time: number; head: string; body: string[] } | null = null;
  const flush = () => {
    if (current) entries.push(classify(current.time, current.head, current.body.join("\n").trim()));
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(ANSI, "");
    const m = ENTRY_LINE.exec(line);
    if (m) {
      flush();
      const [, y, d, mo, h, mi, s, head] = m;
      current = { time: chatDevTime(+y!, +d!, +mo!, +h!, +mi!, +s!), head: head!.trim(), body: [] };
    } else current?.body.push(line);
  }
  flush();
  return entries;
}

const V3_TURN = /^(.+?): \*\*(.+?)<->(.+?) on : (\w+), turn (\d+)\*\*$/;
const V3_START = /^(.+?): \*\*\[Start Chat\]\*\*$/;
const OLD_TURN = /^\[(\d+)\] AI (Assistant|User) \((.+?)\):?$/;
const OLD_TERMINATED = /^\[(\d+)\] AI (Assistant|User) \((.+?)\) terminated the chat\.$/;
const OLD_START = /^AI User \((.+?)\):$/;
const SYSTEM_MESSAGE = /^AI (Assistant|User) \((.+?)\) sys message:/;

function classify(time: number, head: string, body: string): LogEntry {
  const entry = (kind: EntryKind, more: Partial<LogEntry> = {}): LogEntry => ({ kind, time, head, body, ...more });
  let m: RegExpExecArray | null;
  if (/flask app\.py did not start|^HTTP Request:/.test(head)) return entry("noise");
  if ((m = V3_TURN.exec(head))) return entry("turn", { speaker: m[1]!, pair: [m[2]!, m[3]!], phase: m[4]!, turn: Number(m[5]) });
  if ((m = V3_START.exec(head))) return entry("start", { speaker: m[1]! });
  if ((m = OLD_TERMINATED.exec(head))) return entry("terminated", { speaker: m[3]!, side: side(m[2]!), turn: Number(m[1]) });
  if ((m = OLD_TURN.exec(head))) return entry("turn", { speaker: m[3]!, side: side(m[2]!), turn: Number(m[1]) });
  if ((m = OLD_START.exec(head))) return entry("start", { speaker: m[1]!, side: "user" });
  if ((m = SYSTEM_MESSAGE.exec(head))) return entry("system_message", { speaker: m[2]!, side: side(m[1]!) });
  if ((m = /^PhaseType: PhaseType\.(\w+)/.exec(head))) return entry("phase", { phase: m[1]! });
  if (head.startsWith("System: **[chatting]**")) return phaseTable(entry("phase"));
  const marker = /^\*\*\[([^\]]+)\]\*\*/.exec(head)?.[1] ?? /^\[([^\]]+)\]/.exec(head)?.[1];
  switch (marker) {
    case "OpenAI_Usage_Info Send": return entry("usage_send");
    case "OpenAI_Usage_Info Receive":
    case "OpenAI_Usage_Info": return entry("usage");
    case "Seminar Conclusion": return entry("conclusion");
    case "Human-Agent-Interaction": return entry("human_prompt");
    case "User Provided Comments": return entry("human");
    case "Execute Detail": return entry("execute");
    case "Test Reports": return entry("test_report");
    case "Post Info": return entry("post_info");
    case "Software Info": return entry("software_info");
    case "Preprocessing": return entry("run_start");
  }
  if (/^Software Info:/.test(head)) return entry("software_info", { body: `${head}\n${body}`.trim() });
  if (/^Task prompt:/.test(head)) return entry("task_prompt");
  if (/^(ChatDev|AgentTech) Starts/.test(head)) return entry("run_start");
  if (/^(ChatDev|AgentTech) Ends/.test(head)) return entry("run_end");
  return entry("other");
}

function side(word: string): "assistant" | "user" {
  return word === "User" ? "user" : "assistant";
}

/** `| **key** | value |` rows of a 2023-08+ phase table. */
export function tableRows(body: string): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const line of body.split("\n")) {
    const m = /^\| \*\*(\w+)\*\* \| (.*) \|$/.exec(line.trim());
    if (m) rows[m[1]!] = m[2]!.trim();
  }
  return rows;
}

function phaseTable(entry: LogEntry): LogEntry {
  const rows = tableRows(entry.body);
  const pair: [string, string] | undefined = rows.assistant_role_name && rows.user_role_name ? [rows.assistant_role_name, rows.user_role_name] : undefined;
  return { ...entry, ...(rows.phase_name ? { phase: rows.phase_name } : {}), ...(pair ? { pair } : {}) };
}

/** `key: number` and `**key**=value` pairs of usage and info blocks. */
export function numbersIn(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/\**(\w+)\**\s*[:=]\s*\$?(-?\d+(?:\.\d+)?)/g)) out[m[1]!] = Number(m[2]);
  return out;
}
