/**
 * Part 1 of bench:compute: all metrics plus CCP under each built-in preset,
 * per trace shape and size, against two references run in the same process
 * on the same trace: JSON.parse of its text and a plain BFS over its edges.
 */
import { creditColumns, prepareTrace } from "@/lib/credit";
import { computeMetrics } from "@/lib/metrics";
import { BUILTIN_PRESETS } from "@/lib/rewards";
import type { Trace } from "@/lib/trace/types";
import { fmt } from "../db";
import { measureMemory, medianMs, plainBfs, type MemoryUse } from "./measure";
import { makeTrace, SHAPES, type Shape } from "./shapes";

const PRESETS = Object.values(BUILTIN_PRESETS);
const TARGET_MS = 1000;

interface Row {
  shape: Shape;
  events: number;
  edges: number;
  parseMs: number;
  bfsMs: number;
  metricsMs: number;
  /** Median time of CCP (creditColumns) for each preset on a prepared trace. */
  ccpMs: number[];
  /** Everything from the trace: prepareTrace (analysis + all metrics) and CCP under every preset. */
  totalMs: number;
  memory: MemoryUse;
}

/** What the target is about: all metrics, then CCP credit under each preset. */
function metricsAndCredit(trace: Trace) {
  const prepared = prepareTrace(trace);
  return { prepared, credit: PRESETS.map((preset) => creditColumns(prepared, { preset })) };
}

function measure(shape: Shape, events: number): Row {
  const trace = makeTrace(shape, events);
  const text = JSON.stringify(trace);
  const runs = events <= 1_000 ? 40 : events <= 10_000 ? 12 : 7;
  const prepared = prepareTrace(trace);
  return {
    shape,
    events,
    edges: trace.edges.length,
    parseMs: medianMs(() => JSON.parse(text) as unknown, runs),
    bfsMs: medianMs(() => plainBfs(trace), runs),
    metricsMs: medianMs(() => computeMetrics(trace), runs),
    ccpMs: PRESETS.map((preset) => medianMs(() => creditColumns(prepared, { preset }), runs)),
    totalMs: medianMs(() => metricsAndCredit(trace), runs),
    memory: measureMemory(() => metricsAndCredit(trace), Math.max(1, Math.round(100_000 / events))),
  };
}

const COLUMNS = ["shape", "events", "edges", "parse ms", "BFS ms", "metrics ms", "CCP/preset ms", "total ms", "events/s", "total/BFS", "total/parse", "retained B/ev", "peak B/ev", "peak MB"];

function cells(r: Row): string[] {
  const ms = (x: number) => fmt(x, x < 10 ? 2 : 1);
  return [
    r.shape,
    fmt(r.events),
    fmt(r.edges),
    ms(r.parseMs),
    ms(r.bfsMs),
    ms(r.metricsMs),
    `${ms(Math.min(...r.ccpMs))}-${ms(Math.max(...r.ccpMs))}`,
    ms(r.totalMs),
    fmt((r.events / r.totalMs) * 1000),
    fmt(r.totalMs / r.bfsMs, 1),
    fmt(r.totalMs / r.parseMs, 2),
    fmt(r.memory.retained / r.events),
    fmt(r.memory.peak / r.events),
    fmt(r.memory.peak / 1048576, 1),
  ];
}

const kilo = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${fmt(n / 1000)}k` : fmt(n));
const WIDTHS = COLUMNS.map((c) => Math.max(c.length, 9));
const line = (r: readonly string[]) => r.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[i]!) : c.padStart(WIDTHS[i]!))).join(" ");

export function computeBench(sizes: readonly number[]): void {
  console.log(`\n== compute: all metrics + CCP under ${PRESETS.length} presets (${PRESETS.map((p) => p.name).join(", ")}), median wall time ==`);
  console.log(line(COLUMNS));
  const rows: Row[] = [];
  for (const shape of SHAPES) {
    for (const events of sizes) {
      const row = measure(shape, events);
      rows.push(row);
      console.log(line(cells(row)));
    }
  }
  console.log(
    "\ntotal = prepareTrace (causal graph, topological order, terminal BFS, E1-E4, stop, roles) + creditColumns(ccp) per preset;" +
      "\nmetrics = computeMetrics alone; BFS = Map of ids + arrays of predecessors + BFS from the last event; parse = JSON.parse of the trace's text;" +
      "\nretained = heap + typed arrays still held by one result after a full GC; peak = highest heap + typed arrays during one run above the" +
      "\nlevel before it, garbage included (small runs see no GC, so their peak is all they allocate; big ones are collected along the way).",
  );
  for (const shape of SHAPES) {
    const mine = rows.filter((r) => r.shape === shape).sort((a, b) => a.events - b.events);
    const big = mine.at(-1)!;
    const verdict = big.totalMs < TARGET_MS ? "ok" : "MISSED";
    const parts = [`${shape.padEnd(6)} ${fmt(big.events)} events: ${fmt(big.totalMs, 1)} ms (target < ${fmt(TARGET_MS)} ms: ${verdict})`];
    for (let k = 1; k < mine.length; k++) {
      const [a, b] = [mine[k - 1]!, mine[k]!];
      parts.push(`time ${kilo(b.events)}/${kilo(a.events)} = ${fmt(b.totalMs / a.totalMs, 1)} (BFS ${fmt(b.bfsMs / a.bfsMs, 1)}; linear ${fmt(b.events / a.events)})`);
    }
    parts.push(`retained B/ev ${mine.map((r) => fmt(r.memory.retained / r.events)).join(" / ")}`);
    parts.push(`peak B/ev ${mine.map((r) => fmt(r.memory.peak / r.events)).join(" / ")}`);
    console.log(parts.join("; "));
  }
}
