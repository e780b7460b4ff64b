"use client";

import { useEffect } from "react";
import { labelFamilies } from "@/lib/annotate/families";
import type { LabelRowsPage } from "@/lib/annotate/rows";
import { call, describeFailure, type ApiResult } from "@/lib/api/client";
import { annotationRows } from "@/lib/api/contracts/annotations";
import { graphCreditPart } from "@/lib/api/contracts/traces";
import type { EventType } from "@/lib/trace/types";
import type { LabelRow, LabelingState } from "./store";
import { contextShown } from "./unit-context";
import type { StoreApi } from "zustand";

/**
 * Feeds the label view: rows from `GET /api/traces/{id}/annotations/rows`
 * (read straight from the stored events, no graph build), a small page
 * around the start event first so the view is usable at once, then the
 * rest in pages of 5,000 with a yield to the browser between them (a
 * 20,000-row page was a long task of its own: five of them kept a
 * 100,000-event view busy for over a second); credit from the paged graph API
 * (`GET /api/traces/{id}/graph?part=credit`) in pages of 50,000 numbers.
 * Credit needs the whole trace analysed (seconds on 100,000 events, on
 * the server's one thread), so it is asked for only once the first unit's
 * content is drawn (or after CREDIT_DELAY_MS): the first open never waits
 * for it. A 100,000-event trace never travels as one document.
 */
const FIRST_PAGE = 1_000;
const PAGE = 5_000;
const CREDIT_PAGE = 50_000;
const CREDIT_DELAY_MS = 1_500;

/** The data of an answer; a failed call throws its message (the view reports it once). */
function need<T>(result: ApiResult<T>): T {
  if (!result.ok) throw new Error(describeFailure(result));
  return result.data;
}

/** The credit query of the label view: CCP under `preset`, with the judges' values when `judges` names them. */
export const labelCreditQuery = (preset: string, judges: string) => ({ method: "ccp", preset, ...(judges && { judges }) });

export async function loadCredit(store: StoreApi<LabelingState>, preset: string): Promise<void> {
  const { traceId, total, judges } = store.getState();
  for (let from = 0; from < Math.max(total, 1); from += CREDIT_PAGE) {
    const page = need(await call(graphCreditPart, { params: { id: traceId }, query: { part: "credit", ...labelCreditQuery(preset, judges), from, limit: CREDIT_PAGE } }));
    store.getState().setCredit(from, page.total);
    if (page.next === null) break;
  }
}

async function rowsPage(traceId: string, from: number, limit: number): Promise<LabelRowsPage> {
  return need(await call(annotationRows, { params: { id: traceId }, query: { from, limit } }));
}

export function useTracePages(store: StoreApi<LabelingState>, preset: string, onError: (message: string) => void): void {
  useEffect(() => {
    let cancelled = false;
    const { traceId } = store.getState();
    void (async () => {
      const toRows = (page: LabelRowsPage): LabelRow[] =>
        page.rows.map((r, i) => {
          const seq = page.from + i;
          const type = r.type as EventType;
          return { id: r.id, seq, type, agent: r.agent, summary: r.summary, step: r.step, families: labelFamilies({ type }, { stopAnchor: seq === (page.stop ?? page.terminal) }) };
        });
      const start = Math.max(0, store.getState().index);
      // the page holding the start event first, so that `?event=` deep links are usable at once
      const total = store.getState().total;
      const firstFrom = Math.max(0, Math.min(start - FIRST_PAGE / 2, total - FIRST_PAGE));
      const first = await rowsPage(traceId, firstFrom, FIRST_PAGE);
      if (cancelled) return;
      store.getState().setTotal(first.total);
      store.getState().addRows(first.from, toRows(first));
      void Promise.race([contextShown(traceId), new Promise((r) => setTimeout(r, CREDIT_DELAY_MS))])
        .then(() => (cancelled ? undefined : loadCredit(store, preset)))
        .catch((e: unknown) => onError(String(e)));
      for (let from = 0; from < first.total; from += PAGE) {
        const page = await rowsPage(traceId, from, PAGE);
        if (cancelled) return;
        store.getState().addRows(page.from, toRows(page));
        // let input and drawing in between the pages
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    })().catch((e: unknown) => !cancelled && onError(String(e)));
    return () => {
      cancelled = true;
    };
  }, [store, preset, onError]);
}
