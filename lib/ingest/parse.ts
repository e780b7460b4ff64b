import { MAX_DEPTH } from "@/lib/trace/limits";
import type { Problem } from "@/lib/trace/validate";
import { nestingProblem } from "./depth";
import { malformedJson } from "./json-error";

/**
 * Splits a request body into trace records: one JSON trace, a JSON array of
 * traces, or JSONL (one trace per non-empty line). Each record carries the
 * JSON path that problems inside it are reported under.
 */
export interface TraceRecord {
  base: string;
  value: unknown;
}

export type ParseResult = { ok: true; records: TraceRecord[] } | { ok: false; problems: Problem[] };

export function parseJsonBody(text: string): ParseResult {
  // one level more than a trace may have: the array that holds several traces (not a level, SPEC.md section 8)
  const deep = nestingProblem(text, MAX_DEPTH, "$", 1);
  if (deep) return { ok: false, problems: [deep] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ path: "$", message: malformedJson(text, error) }] };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return { ok: false, problems: [{ path: "$", message: "the array holds no traces" }] };
    return { ok: true, records: (value as unknown[]).map((v, i) => ({ base: `$[${i}]`, value: v })) };
  }
  return { ok: true, records: [{ base: "$", value }] };
}

/** JSONL: record i (0-based, blank lines skipped) is reported as `$[i]`; malformed lines name their line number. */
export function parseJsonLines(text: string): ParseResult {
  const records: TraceRecord[] = [];
  const problems: Problem[] = [];
  const lines = text.split("\n");
  lines.forEach((line, lineIndex) => {
    const parsed = parseJsonLine(line, records.length, lineIndex + 1);
    if (parsed === null) return;
    if ("problem" in parsed) problems.push(parsed.problem);
    else records.push(parsed);
  });
  if (problems.length > 0) return { ok: false, problems };
  if (records.length === 0) return { ok: false, problems: [{ path: "$", message: "the body holds no traces" }] };
  return { ok: true, records };
}

/** Parses one JSONL line; null for a blank line. Shared with the streaming CLI reader. */
export function parseJsonLine(line: string, index: number, lineNumber: number): TraceRecord | { problem: Problem } | null {
  const trimmed = line.trim();
  if (trimmed === "") return null;
  const deep = nestingProblem(trimmed, MAX_DEPTH, `$[${index}]`);
  if (deep) return { problem: deep };
  try {
    return { base: `$[${index}]`, value: JSON.parse(trimmed) as unknown };
  } catch (error) {
    return { problem: { path: `$[${index}]`, message: `malformed JSON on line ${lineNumber}: ${(error as Error).message}` } };
  }
}

/** Several lines, each one JSON object: JSONL even without a .jsonl name. */
export function looksLikeJsonLines(text: string): boolean {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  return lines.length > 1 && lines.every((l) => l.trim().startsWith("{") && l.trim().endsWith("}"));
}
