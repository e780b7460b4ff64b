/**
 * What a file's first bytes say before any parser sees it: an empty file, a
 * binary one, or a CSV are refused with a message saying so (rather than
 * "malformed JSON" or a parser's "Unexpected token"), and a binary file's
 * bytes are never echoed back. Pure: the API, the upload page and the CLI
 * share it.
 */

/** How many leading bytes `unsupportedInput` needs. */
export const SNIFF_BYTES = 4096;

export const SUPPORTED_FORMATS =
  "JSON or JSONL traces in Baton's schema, Who&When, MultiAgentBench, tau-bench, ChatDev logs, AgentOps or OpenTelemetry (OTLP/JSON)";

const TABLE_NAME = /\.(csv|tsv)$/i;

/**
 * The reason a file cannot hold traces, or null when it may. `head` is its
 * first SNIFF_BYTES bytes (or all of them); `size` its length in bytes;
 * `name` its file name (a .csv or .tsv name is a table whatever it holds).
 */
export function unsupportedInput(name: string, head: Uint8Array, size: number): string | null {
  if (size === 0) return "empty file: it holds no traces";
  if (head.includes(0)) return `binary file (not text): not a supported format (supported: ${SUPPORTED_FORMATS})`;
  // a multi-byte character may be cut at the end of the head: only the bytes before the last 3 must decode
  const decodable = size > head.length ? head.subarray(0, Math.max(0, head.length - 3)) : head;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(decodable);
  } catch {
    return `binary file (not UTF-8 text): not a supported format (supported: ${SUPPORTED_FORMATS})`;
  }
  if (size <= head.length && text.trim() === "") return "empty file: it holds only whitespace, no traces";
  if (TABLE_NAME.test(name) || looksLikeCsv(text, size > head.length)) return `CSV is not a supported format (supported: ${SUPPORTED_FORMATS})`;
  return null;
}

/** Two or more lines with the same number (at least one) of commas or tabs, not opening as JSON; `cut`: the text's last line may be cut short. */
function looksLikeCsv(text: string, cut: boolean): boolean {
  const start = text.replace(/^\uFEFF/, "").trimStart();
  if (start === "" || start.startsWith("{") || start.startsWith("[")) return false;
  const all = start.split(/\r?\n/);
  if (cut) all.pop();
  const lines = all.filter((l) => l.trim() !== "").slice(0, 3);
  if (lines.length < 2) return false;
  for (const sep of [",", "\t"]) {
    const counts = lines.map((l) => l.split(sep).length - 1);
    if (counts[0]! >= 1 && counts.every((c) => c === counts[0])) return true;
  }
  return false;
}
