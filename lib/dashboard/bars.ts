/**
 * Bar keys: each bar of the dashboard names the traces behind it, and the
 * key is what the URL keeps (`bar=`), so a shared link reopens the same list.
 *
 *   <metric>:<bin index>   a histogram bin        <metric>:null   its nulls
 *   e1:1 | e1:0 | e1:null  success, failure, unknown
 *   verdict:<verdict>      verdict:none   traces without a verdict
 *   day:YYYY-MM-DD         traces created that day (UTC)
 *   policy:<version>       policy:   traces without metadata.policy_version
 */
import { VERDICTS } from "../metrics/types";
import { metricOf } from "./metrics";

export type BarSelection =
  | { kind: "bin"; metric: string; index: number }
  | { kind: "null"; metric: string }
  | { kind: "e1"; value: 0 | 1 | null }
  | { kind: "verdict"; verdict: string | null }
  | { kind: "day"; day: string }
  | { kind: "policy"; version: string | null };

export const binKey = (metric: string, index: number) => `${metric}:${index}`;
export const nullKey = (metric: string) => `${metric}:null`;
export const dayKey = (day: string) => `day:${day}`;
export const policyKey = (version: string | null) => `policy:${version ?? ""}`;

/** The selection a bar key names; null for a key no bar can have. */
export function parseBar(key: string | undefined): BarSelection | null {
  if (!key) return null;
  const colon = key.indexOf(":");
  if (colon < 0) return null;
  const head = key.slice(0, colon);
  const rest = key.slice(colon + 1);
  if (head === "e1") return rest === "1" ? { kind: "e1", value: 1 } : rest === "0" ? { kind: "e1", value: 0 } : rest === "null" ? { kind: "e1", value: null } : null;
  if (head === "verdict") return rest === "none" ? { kind: "verdict", verdict: null } : (VERDICTS as readonly string[]).includes(rest) ? { kind: "verdict", verdict: rest } : null;
  if (head === "day") return /^\d{4}-\d{2}-\d{2}$/.test(rest) ? { kind: "day", day: rest } : null;
  if (head === "policy") return { kind: "policy", version: rest === "" ? null : rest };
  if (!metricOf(head)) return null;
  if (rest === "null") return { kind: "null", metric: head };
  return /^\d{1,4}$/.test(rest) ? { kind: "bin", metric: head, index: Number(rest) } : null;
}

/** What the bar's traces are, in words (the heading of the list). */
export function describeBar(bar: BarSelection, label: (metric: string) => string, binLabel?: string): string {
  switch (bar.kind) {
    case "bin":
      return `${label(bar.metric)} in ${binLabel ?? `bin ${bar.index}`}`;
    case "null":
      return `${label(bar.metric)} is null`;
    case "e1":
      return bar.value === 1 ? "E1 success" : bar.value === 0 ? "E1 failure" : "E1 unknown";
    case "verdict":
      return `stop verdict ${bar.verdict ?? "none"}`;
    case "day":
      return `created on ${bar.day} (UTC)`;
    case "policy":
      return bar.version === null ? "no policy_version" : `policy_version ${bar.version}`;
  }
}
