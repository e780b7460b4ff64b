/**
 * The inspector's on-demand fetches (one event with its content, one
 * event's credit by family) and the trace's metrics. Each returns a promise
 * that never rejects (an ApiResult, lib/api/client.ts), cached by the store
 * per view so React's `use()` sees the same promise on every render.
 */
import type { GraphMeta } from "@/lib/graph-view/wire";
import type { TraceMetrics } from "@/lib/metrics/types";
import { call, callBytes, type ApiResult } from "@/lib/api/client";
import { graphCreditPart, traceEvents, traceGraph, traceMetrics } from "@/lib/api/contracts/traces";
import { weightParams } from "@/lib/graph-view/view-state";
import type { WeightOverrides } from "@/lib/rewards/presets";
import type { EventCredit, EventRecord } from "./state";


/** Every field of the event at `seq`, content included (as text; the caller renders it as text). */
export async function fetchEventRecord(traceId: string, seq: number): Promise<ApiResult<EventRecord>> {
  const page = await call(traceEvents, { params: { id: traceId }, query: { cursor: String(seq), limit: 1, content: "1" } });
  if (!page.ok) return page;
  const event = page.data.events[0];
  return event ? { ok: true, data: event } : { ok: false, status: 404, code: "not_found", message: `no event at position ${seq}`, issues: [] };
}

/** The credit of the event at `seq` under `query` (method, preset, normalize), by family when the method has families. */
export async function fetchEventCredit(traceId: string, seq: number, query: string): Promise<ApiResult<EventCredit>> {
  const credit = Object.fromEntries(new URLSearchParams(query));
  const page = await call(graphCreditPart, { params: { id: traceId }, query: { part: "credit", families: "1", from: seq, limit: 1, ...credit } });
  if (!page.ok) return page;
  const p = page.data;
  const byFamily = p.by_family ? Object.fromEntries(Object.entries(p.by_family).map(([f, values]) => [f, values[0]!])) : null;
  return { ok: true, data: { total: p.total[0]!, byFamily, method: p.method, preset: p.preset, normalize: p.normalize } };
}

export function fetchMetrics(traceId: string): Promise<ApiResult<TraceMetrics>> {
  return call(traceMetrics, { params: { id: traceId } });
}

/** The credit part of the graph API's query string (with the `w.<family>` overrides, if any). */
export function creditQueryString(q: { method: string; preset: string; normalize: boolean; weights?: WeightOverrides; judges?: string }): string {
  const params = new URLSearchParams({ method: q.method, preset: q.preset, normalize: q.normalize ? "1" : "0" });
  if (q.judges) params.set("judges", q.judges);
  for (const [key, value] of weightParams(q.weights ?? {})) params.set(key, value);
  return params.toString();
}

/**
 * Starts downloading every page of events as soon as the view is created in
 * the browser (before hydration finishes and the worker exists); the bytes
 * are handed to the worker, which parses them. A failed page resolves to
 * null and the worker fetches it itself.
 */
export function prefetchEventPages(traceId: string, meta: GraphMeta): Promise<ArrayBuffer | null>[] {
  return Array.from({ length: meta.pages }, async (_, k) => {
    const answer = await callBytes(traceGraph, { params: { id: traceId }, query: { part: "events", from: String(k * meta.page_size), limit: String(meta.page_size) } });
    return answer.ok ? answer.data : null;
  });
}
