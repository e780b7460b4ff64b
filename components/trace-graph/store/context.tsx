"use client";
/**
 * One graph store per mounted view, reached through context (zustand's
 * Next.js pattern: no module-level store shared across requests). Named
 * selector hooks are defined once here, at module scope.
 */
import { createContext, useContext, type ReactNode } from "react";
import { useStore } from "zustand";
import { eventLook, type EmphasisInput } from "@/lib/graph-view/emphasis";
import type { GraphStore } from "./graph-store";
import type { GraphActions, GraphState } from "./state";

const GraphStoreContext = createContext<GraphStore | null>(null);

export function GraphStoreProvider({ store, children }: { store: GraphStore; children: ReactNode }) {
  return <GraphStoreContext value={store}>{children}</GraphStoreContext>;
}

export function useGraphStoreApi(): GraphStore {
  const store = useContext(GraphStoreContext);
  if (!store) throw new Error("graph store hooks must be used inside <GraphStoreProvider>");
  return store;
}

export function useGraphStore<T>(selector: (state: GraphState) => T): T {
  return useStore(useGraphStoreApi(), selector);
}

const selectActions = (s: GraphState): GraphActions => s.actions;
const selectScene = (s: GraphState) => s.scene;
const selectBrief = (s: GraphState) => s.brief;
const selectLayout = (s: GraphState) => s.layout;
const selectMeta = (s: GraphState) => s.meta;
const selectCreditExtent = (s: GraphState): number | null => (s.overlays.includes("credit") && s.credit.status === "ready" ? (s.credit.summary?.extent ?? 0) : null);

export const useGraphActions = () => useGraphStore(selectActions);
export const useScene = () => useGraphStore(selectScene);
export const useSelectedEvent = () => useGraphStore(selectBrief);
export const useLayoutSummary = () => useGraphStore(selectLayout);
export const useGraphMeta = () => useGraphStore(selectMeta);
/** The credit colour scale's half-width when the credit overlay is on and loaded, else null. */
export const useCreditExtent = () => useGraphStore(selectCreditExtent);

export function emphasisInput(s: GraphState): EmphasisInput {
  return { overlays: s.overlayBits, selected: s.selected, hovered: s.hovered, lineage: s.lineage };
}

/** One node's look as a number, so the node re-renders only when its own look changes. */
export function useEventLook(seq: number, roles: number, id: string): number {
  return useGraphStore((s) => eventLook(seq, roles, emphasisInput(s), s.highlighted.has(id)));
}

/** A cluster's look: its members' roles under the overlays (hover lineage does not apply to clusters). */
export function useClusterLook(roles: number): number {
  return useGraphStore((s) => eventLook(-1, roles, { overlays: s.overlayBits, selected: null, hovered: null, lineage: null }));
}
