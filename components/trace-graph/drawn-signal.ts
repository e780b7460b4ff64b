/**
 * "The graph of this trace is drawn": the graph view says so once its
 * first scene is on the screen (or its load failed), and the panels drawn
 * beside it on the page (the suspects) wait for it before asking the
 * server for their own, secondary data. On a run of 100,000 events the
 * suspects' request starts a ranking that takes one of the machine's cores
 * for many seconds: asked at once, it slowed the event pages the graph
 * needs first. One signal per trace and page view; a view that goes away
 * forgets its own.
 */
const done = new Set<string>();
const waiting = new Map<string, Array<() => void>>();

/** Says that the graph of `traceId` is drawn (idempotent). */
export function markGraphDrawn(traceId: string): void {
  if (done.has(traceId)) return;
  done.add(traceId);
  for (const resolve of waiting.get(traceId) ?? []) resolve();
  waiting.delete(traceId);
}

/** Forgets the signal (the graph view of `traceId` is gone: a new one draws again). */
export function forgetGraphDrawn(traceId: string): void {
  done.delete(traceId);
}

/** Resolves once the graph of `traceId` is drawn (at once if it is already). */
export function whenGraphDrawn(traceId: string): Promise<void> {
  if (done.has(traceId)) return Promise.resolve();
  return new Promise((resolve) => {
    const list = waiting.get(traceId) ?? [];
    list.push(resolve);
    waiting.set(traceId, list);
  });
}
