"use client";

import { createContext, createElement, useContext, useState, type ReactNode } from "react";
import { createStore, useStore, type StoreApi } from "zustand";
import type { LabelField } from "./label-fields";

/** One labeling view's state (one store per mounted view, never a module singleton). */
export type SaveStatus = "saving" | "saved" | "failed";

export interface LabelState {
  value: number;
  status: SaveStatus;
  comment?: string | null;
  error?: string;
}

export interface LabelRow {
  id: string;
  seq: number;
  agent: string;
  type: string;
  summary: string;
  /** the dataset's own step, null when the trace has none (lib/trace/steps.ts) */
  step: number | null;
  families: string[];
}

export type Overlay = "help" | "skip" | null;

export interface LabelingState {
  traceId: string;
  /** `judges=` of the credit requests ("" people only, "all"): SPEC.md section 5 */
  judges: string;
  /** events in the trace; rows arrive page by page (index = event order) */
  total: number;
  rows: (LabelRow | undefined)[];
  loaded: number;
  /** C(v) by event order, null until the credit page arrived */
  credit: (number | null)[];
  creditVersion: number;
  /** how many times the trace's credit was (re)computed and its first page arrived: what a unit's own credit and values follow (a trace of many credit pages counts once per load) */
  creditRound: number;
  creditStale: boolean;
  /** -1: the whole trace; 0..total-1: an event */
  index: number;
  field: number;
  /** values chosen (1-9) for the selected unit, not saved yet, by family */
  drafts: Record<string, number>;
  /** comments typed for the selected unit, by family */
  comments: Record<string, string>;
  commenting: string | null;
  /** this annotator's labels by label key (`${eventId}|${family}`, eventId "" for the trace) */
  labels: Record<string, LabelState>;
  overlay: Overlay;
  /** set once the first page is drawn (the benchmark waits for it) */
  ready: boolean;
  setIndex(index: number): void;
  move(by: number): void;
  moveField(by: number): void;
  setField(field: number): void;
  choose(family: string, value: number): void;
  setComment(family: string, text: string): void;
  setCommenting(family: string | null): void;
  setLabel(key: string, label: LabelState | undefined): void;
  setOverlay(overlay: Overlay): void;
  addRows(from: number, rows: LabelRow[]): void;
  setTotal(total: number): void;
  setCredit(from: number, values: number[]): void;
  markCreditStale(): void;
}

export const labelKey = (eventId: string | null, family: string) => `${eventId ?? ""}|${family}`;

export const TRACE_FIELDS: LabelField[] = [{ family: "task_success", unit: "trace" }];

export function fieldsOf(s: Pick<LabelingState, "index" | "rows">): LabelField[] {
  if (s.index < 0) return TRACE_FIELDS;
  return (s.rows[s.index]?.families ?? []).map((family) => ({ family, unit: "event" as const }));
}

export const selectUnitEventId = (s: LabelingState): string | null => (s.index < 0 ? null : (s.rows[s.index]?.id ?? null));

/** `startEvent`: the event to start at (e.g. from `?event=`), selected once its page arrives. */
export function createLabelingStore(init: { traceId: string; total: number; startIndex: number; judges?: string }): StoreApi<LabelingState> {
  const unitReset = { field: 0, drafts: {}, comments: {}, commenting: null };
  return createStore<LabelingState>()((set) => ({
    traceId: init.traceId,
    judges: init.judges ?? "",
    total: init.total,
    rows: [],
    loaded: 0,
    credit: [],
    creditVersion: 0,
    creditRound: 0,
    creditStale: false,
    index: init.startIndex,
    ...unitReset,
    labels: {},
    overlay: null,
    ready: false,
    setIndex: (index) => set((s) => ({ index: Math.min(s.total - 1, Math.max(-1, index)), ...unitReset })),
    move: (by) => set((s) => ({ index: Math.min(Math.max(s.loaded, 1) - 1, Math.max(-1, s.index + by)), ...unitReset })),
    moveField: (by) =>
      set((s) => {
        const n = Math.max(1, fieldsOf(s).length);
        return { field: (s.field + by + n) % n, commenting: null };
      }),
    setField: (field) => set({ field }),
    choose: (family, value) => set((s) => ({ drafts: { ...s.drafts, [family]: value } })),
    setComment: (family, text) => set((s) => ({ comments: { ...s.comments, [family]: text } })),
    setCommenting: (commenting) => set({ commenting }),
    setLabel: (key, label) =>
      set((s) => {
        const labels = { ...s.labels };
        if (label) labels[key] = label;
        else delete labels[key];
        return { labels };
      }),
    setOverlay: (overlay) => set({ overlay }),
    addRows: (from, rows) =>
      set((s) => {
        for (let i = 0; i < rows.length; i++) s.rows[from + i] = rows[i];
        return { rows: s.rows, loaded: Math.max(s.loaded, from + rows.length), ready: true };
      }),
    setTotal: (total) => set((s) => ({ total, index: s.index >= total ? 0 : s.index })),
    setCredit: (from, values) =>
      set((s) => {
        for (let i = 0; i < values.length; i++) s.credit[from + i] = values[i]!;
        return { credit: s.credit, creditVersion: s.creditVersion + 1, creditRound: s.creditRound + (from === 0 ? 1 : 0), creditStale: false };
      }),
    markCreditStale: () => set({ creditStale: true }),
  }));
}

const LabelingContext = createContext<StoreApi<LabelingState> | null>(null);

export function LabelingProvider({ init, children }: { init: Parameters<typeof createLabelingStore>[0]; children: ReactNode }) {
  const [store] = useState(() => createLabelingStore(init));
  return createElement(LabelingContext.Provider, { value: store }, children);
}

export function useLabelingStore(): StoreApi<LabelingState> {
  const store = useContext(LabelingContext);
  if (!store) throw new Error("useLabeling must be used inside <LabelingProvider>");
  return store;
}

export function useLabeling<T>(selector: (s: LabelingState) => T): T {
  return useStore(useLabelingStore(), selector);
}
