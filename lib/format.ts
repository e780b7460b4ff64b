import { z } from "zod";

/** Number formatting shared by every view, so one value always reads the same. Null is an em dash, never 0. */
export function formatValue(value: number | boolean | string | null | undefined, digits = 3): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return value;
  const v = cleanFloat(value);
  if (Number.isInteger(v)) return v.toLocaleString("en");
  // a small negative value that rounds to zero reads "0", not "-0" (signDisplay "negative")
  return v.toLocaleString("en", { maximumFractionDigits: digits, signDisplay: "negative" });
}

/**
 * Float debris removed: |v| < 1e-9 is 0 (sums of credit cancel to -2e-16, not
 * to a meaningful negative number), and -0 is 0.
 */
export function cleanFloat(value: number): number {
  return Math.abs(value) < 1e-9 ? 0 : value;
}

/** Tokens: whole numbers with separators, large ones shortened (12,000; 1.25M). */
export function formatTokens(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  if (Math.abs(value) >= 1e6) return `${(value / 1e6).toLocaleString("en", { maximumFractionDigits: 2 })}M`;
  return Math.round(value).toLocaleString("en");
}

/** A price in US dollars: cents for a dollar or more, 3 significant digits below (a run costs $0.00421). */
export function formatCost(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  const v = cleanFloat(value);
  if (v === 0) return "$0";
  if (Math.abs(v) >= 1) return `$${v.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return `$${v.toPrecision(3).replace(/\.?0+$/, "")}`;
}

/** The clock a trace's times are on: seconds, or step indexes for sources without timestamps (metadata.clock = "step_index"). */
export type Clock = "seconds" | "steps";

/** Trace metadata saying its `t` values are step indices. */
const stepClock = z.object({ clock: z.literal("step_index") });

export function clockOf(metadata: unknown): Clock {
  return stepClock.safeParse(metadata).success ? "steps" : "seconds";
}

/** A span of time on the trace's own clock: "129 steps", "42.5 s", "3 min 20 s", "2 h 5 min". */
export function formatDuration(value: number | null | undefined, clock: Clock = "seconds"): string {
  if (value === null || value === undefined) return "—";
  const v = cleanFloat(value);
  if (clock === "steps") return `${formatValue(v, 1)} ${v === 1 ? "step" : "steps"}`;
  if (v < 60) return `${formatValue(v, v < 10 ? 2 : 1)} s`;
  const s = Math.round(v);
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ""}`;
}

/** The unit of a time axis: "t (s)" or "step". */
export function axisLabel(clock: Clock): string {
  return clock === "steps" ? "step" : "t (s)";
}

export function formatPercent(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined) return "—";
  return `${(value * 100).toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false, signDisplay: "negative" })}%`;
}

/** A count with its noun: "1 run", "3 runs", "0 runs" (`plural` for nouns not made with an s). */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? singular : plural}`;
}
