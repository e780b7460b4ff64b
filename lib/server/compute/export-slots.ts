import "server-only";
import { ApiError } from "../errors";
import { setting } from "../config";

/**
 * Big exports take turns so that they neither add up in memory nor starve
 * small requests: a trace export of HEAVY_EXPORT_EVENTS events or more, and
 * every dataset export (/api/export), holds one of BATON_EXPORT_SLOTS slots
 * of this process (default 2) from its first read to its last byte (or the
 * client going away). Up to BATON_EXPORT_QUEUE more (default 16) wait their
 * turn in arrival order; past that the answer is 503 `busy` with
 * Retry-After. Each holder loads one trace at a time, so the memory of all
 * exports together is bounded by the slots, not by the number of callers.
 */
export const HEAVY_EXPORT_EVENTS = 20_000;
const RETRY_AFTER_SECONDS = 5;

let limits = { slots: setting("BATON_EXPORT_SLOTS"), queue: setting("BATON_EXPORT_QUEUE") };
let active = 0;
const waiting: (() => void)[] = [];

/** Benchmarks and tests: other limits for this process (the queue must be empty). */
export function setExportLimits(next: { slots: number; queue: number }): void {
  limits = { ...next };
}

export function exportSlotsInUse(): { active: number; waiting: number } {
  return { active, waiting: waiting.length };
}

/** Waits for a slot (503 when the queue is full); the returned function gives it back, once. */
export async function acquireExportSlot(): Promise<() => void> {
  if (active < limits.slots) active++;
  else if (waiting.length >= limits.queue) {
    throw new ApiError(503, "busy", `${active} big exports are running and ${waiting.length} waiting; retry in ${RETRY_AFTER_SECONDS} s`, [], { "retry-after": String(RETRY_AFTER_SECONDS) });
  } else await new Promise<void>((resolve) => waiting.push(resolve));
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    // the slot passes straight to the next in line (active stays the same)
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
}

/** The iterator, giving the slot back when it ends, fails or is closed early. */
export function releasing<T>(source: Iterator<T> | AsyncIterator<T>, release: () => void): AsyncIterator<T> {
  return {
    async next() {
      try {
        const result = await source.next();
        if (result.done) release();
        return result;
      } catch (error) {
        release();
        throw error;
      }
    },
    async return(value?: unknown) {
      release();
      await source.return?.(value);
      return { done: true, value: undefined as T };
    },
  };
}

/** Lets timers and other requests' I/O run (a macrotask), between chunks of CPU-bound work. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
