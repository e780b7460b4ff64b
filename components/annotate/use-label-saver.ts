"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { deleteLabel, fetchLabels, postLabel, type LabelWrite } from "./api";
import { othersPending, readPending, writePending, type LabelUser } from "./pending";
import { labelKey, useLabelingStore, type LabelState } from "./store";
import { loadCredit } from "./use-trace-pages";

/**
 * Optimistic saving that never loses a label and never changes its author:
 * a label shows as "saving" at once; a failure stays visible as "failed" and
 * is kept in localStorage with the user who made it, retried (r, the button,
 * the next visit) only on that user's page. Credit is fetched again after a
 * save so that the numbers follow. `undo` reverts this annotator's last
 * label (the previous value again, or no value).
 */
interface Undo {
  write: LabelWrite;
  previous: LabelState | undefined;
}

export function useLabelSaver(preset: string, me: LabelUser | null) {
  const store = useLabelingStore();
  const traceId = store.getState().traceId;
  const creditRequest = useRef(0);
  const history = useRef<Undo[]>([]);
  const [others, setOthers] = useState<{ name: string; count: number }[]>([]);

  const refreshCredit = useCallback(async () => {
    const request = ++creditRequest.current;
    store.getState().markCreditStale();
    await new Promise((r) => setTimeout(r, 0));
    if (request === creditRequest.current) await loadCredit(store, preset).catch(() => {});
  }, [store, preset]);

  const send = useCallback(async (write: LabelWrite, remember: boolean) => {
    if (!me) return;
    const key = labelKey(write.event_id, write.family);
    const previous = store.getState().labels[key];
    if (remember) history.current.push({ write, previous: previous?.status === "saved" ? previous : undefined });
    store.getState().setLabel(key, { value: write.value, comment: write.comment, status: "saving" });
    writePending(traceId, { ...readPending(traceId), [key]: { write, user: me } });
    const saved = await postLabel(traceId, write);
    if (!saved.ok) return store.getState().setLabel(key, { value: write.value, comment: write.comment, status: "failed", error: saved.message });
    store.getState().setLabel(key, { value: saved.data.value, comment: saved.data.comment, status: "saved" });
    const pending = readPending(traceId);
    delete pending[key];
    writePending(traceId, pending);
    await refreshCredit();
  }, [store, traceId, me, refreshCredit]);

  const save = useCallback((write: LabelWrite) => send(write, true), [send]);

  const retryFailed = useCallback(async () => {
    if (!me) return;
    const mine = Object.values(readPending(traceId)).filter((p) => p.user.key === me.key);
    await Promise.all(mine.map((p) => send(p.write, false)));
  }, [traceId, me, send]);

  const discardOthers = useCallback(() => {
    const pending = readPending(traceId);
    for (const [key, p] of Object.entries(pending)) if (!me || p.user.key !== me.key) delete pending[key];
    writePending(traceId, pending);
    setOthers([]);
  }, [traceId, me]);

  const undo = useCallback(async (): Promise<LabelWrite | null> => {
    const last = history.current.pop();
    if (!last || !me) return null;
    const key = labelKey(last.write.event_id, last.write.family);
    if (last.previous) {
      await send({ ...last.write, value: last.previous.value, comment: last.previous.comment ?? null }, false);
    } else {
      const deleted = await deleteLabel(traceId, last.write);
      if (deleted.ok) {
        store.getState().setLabel(key, undefined);
        await refreshCredit();
      } else {
        history.current.push(last);
        store.getState().setLabel(key, { ...store.getState().labels[key]!, error: `undo failed: ${deleted.message}` });
      }
    }
    return last.write;
  }, [traceId, me, send, store, refreshCredit]);

  // On arrival: this annotator's saved labels, then a retry of what only they left unsaved; others' are announced, never sent.
  useEffect(() => {
    let cancelled = false;
    // localStorage exists only in the browser: read after hydration, in a callback
    void Promise.resolve().then(() => !cancelled && setOthers(othersPending(readPending(traceId), me)));
    if (!me) return () => {
      cancelled = true;
    };
    void fetchLabels(traceId, true).then(async (mine) => {
      if (cancelled) return;
      for (const a of mine) store.getState().setLabel(labelKey(a.event_id, a.family), { value: a.value, comment: a.comment, status: "saved" });
      await retryFailed();
    });
    return () => {
      cancelled = true;
    };
  }, [store, traceId, me, retryFailed]);

  return { save, retryFailed, undo, others, discardOthers, canUndo: () => history.current.length > 0 };
}
