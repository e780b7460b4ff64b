/**
 * Timing and memory probes for the compute benchmark. Memory needs
 * `global.gc` (node --expose-gc); compute.ts re-executes itself with it.
 */
import { GCProfiler, getHeapStatistics, type HeapStatistics } from "node:v8";
import type { Trace } from "@/lib/trace/types";

/** Results are parked here so that the optimiser cannot drop a computation. */
export const sink: unknown[] = [];

/** Median wall time in ms of `runs` calls, after `warmup` untimed calls. */
export function medianMs(fn: () => unknown, runs: number, warmup = 2): number {
  for (let i = 0; i < warmup; i++) sink[0] = fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    sink[0] = fn();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** The median time of `runs` awaited calls of `run`, after one warm-up call (connections, plan cache). */
export async function medianAsyncMs(run: () => Promise<unknown>, runs: number): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The reference: the least any graph metric must do. Index the event ids,
 * collect causal predecessors as plain arrays, and walk back from the last
 * event (a plain BFS over the same edges). Returns how many events it reached.
 */
export function plainBfs(trace: Trace): number {
  const index = new Map<string, number>();
  trace.events.forEach((e, i) => index.set(e.id, i));
  const preds: number[][] = trace.events.map(() => []);
  for (const edge of trace.edges) if (edge.type !== "temporal") preds[index.get(edge.dst)!]!.push(index.get(edge.src)!);
  const seen = new Uint8Array(trace.events.length);
  const queue = [trace.events.length - 1];
  seen[queue[0]!] = 1;
  for (let head = 0; head < queue.length; head++) {
    for (const p of preds[queue[head]!]!) {
      if (seen[p] === 0) {
        seen[p] = 1;
        queue.push(p);
      }
    }
  }
  return queue.length;
}

const gc = (): void => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error("memory probes need node --expose-gc");
  collect();
  collect();
};

/** V8 heap in use plus memory held outside it (typed-array backing stores). */
const inUse = (): number => {
  const h = getHeapStatistics();
  return h.used_heap_size + h.external_memory;
};

export interface MemoryUse {
  /** Bytes still held by one result after a full collection. */
  retained: number;
  /** Highest heap + external in use during one run above the level before it, garbage included. */
  peak: number;
}

/**
 * Memory of `run`. Retained: `copies` results are kept alive and the growth
 * after a full GC is divided by copies (small traces need many copies to
 * rise above the heap's noise: V8's own one-off allocations of about 1 MB).
 * Peak: the median of 3 single runs, see {@link peakOf}.
 */
export function measureMemory(run: () => unknown, copies: number): MemoryUse {
  const peaks = [peakOf(run), peakOf(run), peakOf(run)];
  gc();
  const base = inUse();
  const kept: unknown[] = [];
  for (let i = 0; i < copies; i++) kept.push(run());
  gc();
  const retained = (inUse() - base) / copies;
  sink[1] = kept.length;
  return { retained, peak: median(peaks) };
}

/**
 * Memory only grows between collections, so the highest level during a run
 * is the one just before some GC (V8's GC profiler records it) or at the
 * end. It depends on when V8 collects: a small run sees no GC, so its peak
 * is all it allocated; a big one is collected along the way.
 */
function peakOf(run: () => unknown): number {
  gc();
  const base = inUse();
  const profiler = new GCProfiler();
  profiler.start();
  sink[1] = run();
  const end = inUse();
  const { statistics } = profiler.stop();
  sink[1] = undefined;
  const level = (h: HeapStatistics) => h.usedHeapSize + h.externalMemory;
  return Math.max(end, ...statistics.map((s) => level(s.beforeGC.heapStatistics))) - base;
}
