/**
 * How far behind in time a standby's data is, from what the probes saw:
 * the primary's WAL head at each probe, with its time. A standby that has
 * replayed up to position R shows the data of the last moment the primary's
 * head was at or below R, so its staleness is the time since then; when R
 * is below every head still remembered, it is at least the time since the
 * oldest one. Zero once it has replayed the newest head seen. A standby whose
 * replay is stuck a few bytes behind (under the byte bound) thus grows stale
 * by the clock and is skipped once past the time bound.
 */

export interface HeadSample {
  lsn: bigint;
  at: number;
}

/** Most samples kept per standby: at one per probe (200 ms apart at most), about 3 minutes of history. */
export const MAX_HEAD_SAMPLES = 1000;

/** Adds a probe's head to the history (oldest first), keeping it bounded. */
export function remember(history: HeadSample[], sample: HeadSample): void {
  const last = history[history.length - 1];
  if (last && last.lsn === sample.lsn) return; // the head did not move: the earlier time is the one that matters
  history.push(sample);
  if (history.length > MAX_HEAD_SAMPLES) history.splice(0, history.length - MAX_HEAD_SAMPLES);
}

/** Milliseconds of data the standby lacks at `now`, given its replay position (null: not in recovery, nothing to lack). */
export function stalenessMs(history: readonly HeadSample[], replayed: bigint | null, now: number): number {
  if (replayed === null || history.length === 0) return 0;
  const newest = history[history.length - 1]!;
  if (replayed >= newest.lsn) return 0;
  // the first head past the replayed position: the standby has everything written before it was seen
  for (let i = history.length - 1; i >= 0; i--) {
    if (history[i]!.lsn <= replayed) return Math.max(0, now - history[i + 1]!.at);
  }
  return Math.max(0, now - history[0]!.at);
}
