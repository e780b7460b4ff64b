"use client";

import { createContext, createElement, useContext, useState, type ReactNode } from "react";
import { createStore, useStore, type StoreApi } from "zustand";

/** One labeling view's state (one store per mounted view, never a module singleton). */
export type SaveStatus = "saving" | "saved" | "failed";

export interface LabelState {
  value: number;
  status: SaveStatus;
  error?: string;
}

export interface LabelEvent {
  id: string;
  seq: number;
  t: number;
  agent: string;
  type: string;
  summary: string;
  families: string[];
}

export interface LabelingState {
  traceId: string;
  events: LabelEvent[];
  index: number;
  familyIndex: number;
  /** value chosen with 1-5, not saved yet, for the selected event and family */
  draft: number | null;
  /** by label key (`${eventId}|${family}`, eventId "" for the trace) */
  labels: Record<string, LabelState>;
  credit: Record<string, number>;
  creditStale: boolean;
  help: boolean;
  move(by: number): void;
  moveFamily(by: number): void;
  setDraft(value: number | null): void;
  setLabel(key: string, label: LabelState): void;
  setCredit(credit: Record<string, number>): void;
  markCreditStale(): void;
  toggleHelp(): void;
}

export const labelKey = (eventId: string | null, family: string) => `${eventId ?? ""}|${family}`;

/** `index`: the event to start at (e.g. from `?event=`); out of range or missing starts at the first. */
export function createLabelingStore(init: { traceId: string; events: LabelEvent[]; credit: Record<string, number>; index?: number }): StoreApi<LabelingState> {
  const { index = 0, ...rest } = init;
  return createStore<LabelingState>()((set) => ({
    ...rest,
    index: Number.isInteger(index) && index >= 0 && index < init.events.length ? index : 0,
    familyIndex: 0,
    draft: null,
    labels: {},
    creditStale: false,
    help: false,
    move: (by) =>
      set((s) => ({ index: Math.min(s.events.length - 1, Math.max(0, s.index + by)), familyIndex: 0, draft: null })),
    moveFamily: (by) =>
      set((s) => {
        const n = s.events[s.index]?.families.length ?? 1;
        return { familyIndex: (s.familyIndex + by + n) % n, draft: null };
      }),
    setDraft: (draft) => set({ draft }),
    setLabel: (key, label) => set((s) => ({ labels: { ...s.labels, [key]: label } })),
    setCredit: (credit) => set({ credit, creditStale: false }),
    markCreditStale: () => set({ creditStale: true }),
    toggleHelp: () => set((s) => ({ help: !s.help })),
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

export const selectCurrentEvent = (s: LabelingState) => s.events[s.index];
export const selectCurrentFamily = (s: LabelingState) => s.events[s.index]?.families[s.familyIndex];
