"use client";

import { useEffect } from "react";
import { labelFamilies } from "@/lib/annotate/families";
import type { GraphCreditPage, GraphEventsPage, GraphMeta } from "@/lib/graph-view/wire";
import type { LabelRow, LabelingState } from "./store";
import type { StoreApi } from "zustand";

/**
 * Feeds the label view from the paged graph API (`GET /api/traces/{id}/graph`,
 * columns cached server-side): a small first page so the view is usable at
 * once, then the rest in big pages; credit in pages of 50,000 numbers. A
 * 100,000-event trace never travels as one document.
 */
const FIRST_PAGE = 1_000;
const PAGE = 20_000;
const CREDIT_PAGE = 50_000;

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

export function graphUrl(traceId: string, query: string): string {
  return `/api/traces/${encodeURIComponent(traceId)}/graph?${query}`;
}

export async function loadCredit(store: StoreApi<LabelingState>, preset: string): Promise<void> {
  const { traceId, total } = store.getState();
  for (let from = 0; from < Math.max(total, 1); from += CREDIT_PAGE) {
    const page = await getJson<GraphCreditPage>(graphUrl(traceId, `part=credit&method=ccp&preset=${encodeURIComponent(preset)}&from=${from}&limit=${CREDIT_PAGE}`));
    store.getState().setCredit(from, page.total);
    if (page.next === null) break;
  }
}

export function useTracePages(store: StoreApi<LabelingState>, preset: string, onError: (message: string) => void): void {
  useEffect(() => {
    let cancelled = false;
    const { traceId } = store.getState();
    void (async () => {
      const meta = await getJson<GraphMeta>(graphUrl(traceId, "part=meta"));
      if (cancelled) return;
      store.getState().setTotal(meta.events);
      const stopAnchor = meta.stop ?? meta.terminal;
      const toRows = (page: GraphEventsPage): LabelRow[] =>
        page.id.map((id, i) => {
          const seq = page.from + i;
          const type = meta.event_types[page.type[i]!]!;
          return { id, seq, type, agent: meta.lanes[page.lane[i]!]?.agent ?? "?", summary: page.label[i]!, families: labelFamilies({ type }, { terminal: seq === meta.terminal, stopAnchor: seq === stopAnchor }) };
        });
      const start = Math.max(0, store.getState().index);
      // the page holding the start event first, so that `?event=` deep links are usable at once
      const firstFrom = Math.max(0, Math.min(start - FIRST_PAGE / 2, meta.events - FIRST_PAGE));
      const first = await getJson<GraphEventsPage>(graphUrl(traceId, `part=events&from=${firstFrom}&limit=${FIRST_PAGE}`));
      if (cancelled) return;
      store.getState().addRows(first.from, toRows(first));
      void loadCredit(store, preset).catch((e: unknown) => onError(String(e)));
      for (let from = 0; from < meta.events; from += PAGE) {
        const page = await getJson<GraphEventsPage>(graphUrl(traceId, `part=events&from=${from}&limit=${PAGE}`));
        if (cancelled) return;
        store.getState().addRows(page.from, toRows(page));
      }
    })().catch((e: unknown) => !cancelled && onError(String(e)));
    return () => {
      cancelled = true;
    };
  }, [store, preset, onError]);
}
