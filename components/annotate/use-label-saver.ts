"use client";

import { useCallback, useEffect, useRef } from "react";
import { fetchCredit, fetchMyLabels, postLabel, type LabelWrite } from "./api";
import { labelKey, useLabelingStore } from "./store";

/**
 * Optimistic saving that never loses a label silently: the label shows as
 * "saving" at once; a failure stays visible as "failed" and is kept in
 * localStorage until a retry (the r key, the button, or the next visit)
 * succeeds. After each save, credit is fetched again so the colours follow.
 */
export function useLabelSaver(preset: string) {
  const store = useLabelingStore();
  const traceId = store.getState().traceId;
  const pendingKey = `baton:pending-labels:${traceId}`;
  const creditRequest = useRef(0);

  const readPending = useCallback((): Record<string, LabelWrite> => {
    try {
      return JSON.parse(localStorage.getItem(pendingKey) ?? "{}") as Record<string, LabelWrite>;
    } catch {
      return {};
    }
  }, [pendingKey]);
  const writePending = useCallback((pending: Record<string, LabelWrite>) => {
    if (Object.keys(pending).length === 0) localStorage.removeItem(pendingKey);
    else localStorage.setItem(pendingKey, JSON.stringify(pending));
  }, [pendingKey]);

  const refreshCredit = useCallback(async () => {
    const request = ++creditRequest.current;
    store.getState().markCreditStale();
    const credit = await fetchCredit(traceId, preset).catch(() => null);
    if (credit && request === creditRequest.current) store.getState().setCredit(credit);
  }, [store, traceId, preset]);

  const save = useCallback(async (write: LabelWrite) => {
    const key = labelKey(write.event_id, write.family);
    store.getState().setLabel(key, { value: write.value, status: "saving" });
    writePending({ ...readPending(), [key]: write });
    try {
      const saved = await postLabel(traceId, write);
      store.getState().setLabel(key, { value: saved.value, status: "saved" });
      const pending = readPending();
      delete pending[key];
      writePending(pending);
      await refreshCredit();
    } catch (error) {
      store.getState().setLabel(key, { value: write.value, status: "failed", error: (error as Error).message });
    }
  }, [store, traceId, readPending, writePending, refreshCredit]);

  const retryFailed = useCallback(async () => {
    await Promise.all(Object.values(readPending()).map((write) => save(write)));
  }, [readPending, save]);

  // On arrival: show this annotator's saved labels, then retry what an earlier visit could not save.
  useEffect(() => {
    let cancelled = false;
    void fetchMyLabels(traceId).then(async (mine) => {
      if (cancelled) return;
      for (const a of mine) store.getState().setLabel(labelKey(a.event_id, a.family), { value: a.value, status: "saved" });
      await retryFailed();
    });
    return () => {
      cancelled = true;
    };
  }, [store, traceId, retryFailed]);

  return { save, retryFailed };
}
