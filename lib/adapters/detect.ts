import { looksLikeChatDevLog } from "./chatdev-log";
import type { AdapterFormat } from "./types";

/**
 * Recognises a source format from the first bytes of a file (64 KiB is
 * plenty; see FIRST_BYTES), by content first: the keys each format starts
 * with. The file name only breaks ties that content leaves open (a MARBLE
 * line whose task text is longer than the bytes read). Returns null when
 * nothing matches; the caller then treats the file as Baton's own format,
 * whose validation says what is wrong with it.
 */

export const FIRST_BYTES = 64 * 1024;

/** A JSON key, not an escaped quote inside a string value (tool outputs often hold JSON). */
const key = (name: string) => new RegExp(`(?<!\\\\)"${name}"\\s*:`);
const has = (text: string, ...names: string[]) => names.every((n) => key(n).test(text));
const hasAny = (text: string, ...names: string[]) => names.some((n) => key(n).test(text));

export function detectFormat(path: string, firstBytes: string): AdapterFormat | null {
  const text = firstBytes.replace(/^\uFEFF/, "");
  const start = text.trimStart();
  if (looksLikeChatDevLog(start)) return "chatdev";
  if (!start.startsWith("{") && !start.startsWith("[")) return null;

  // Baton's own strict and extended forms first: an extended export keeps an adapter's fields in `metadata`
  // (a Who&When run's mistake_agent, say), which must not make its own export look like the source format
  if (/^\[?\s*\{\s*"trace_id"\s*:/.test(start) || has(text, "trace_id", "events", "edges")) return "baton";
  if (/^\{\s*"resourceSpans"\s*:/.test(start) || (has(text, "resourceSpans") && hasAny(text, "scopeSpans", "instrumentationLibrarySpans"))) return "otlp";
  if (has(text, "spans") && hasAny(text, "span_id", "parent_span_id", "root_span_name")) return "agentops";
  // Who&When: either the history comes first (Magentic-One runs), or the labels do (CaptainAgent runs).
  if (/^\{\s*"history"\s*:\s*\[/.test(start) || (has(text, "history") && hasAny(text, "mistake_agent", "mistake_step", "question"))) return "whowhen";
  if (hasAny(text, "mistake_agent", "mistake_step") && hasAny(text, "is_correct", "is_corrected", "question_ID")) return "whowhen";
  if (has(text, "trace_id", "events")) return "baton";
  if (start.startsWith("[") && (has(text, "traj") || has(text, "task_id", "reward", "info"))) return "taubench";
  if (/^\{\s*"task"\s*:/.test(start)) {
    if (hasAny(text, "coordination_mode", "iterations")) return "marble";
    if (/\.jsonl$/i.test(path) && !has(text, "trace_id")) return "marble";
  }
  if (has(text, "trace_id") && hasAny(text, "edges", "task_id")) return "baton";
  return null;
}
