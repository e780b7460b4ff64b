"use client";

import { useSearchParams } from "next/navigation";
import { createContext, createElement, useContext, useState, type ReactNode } from "react";
import { createStore, useStore, type StoreApi } from "zustand";
import { cellParam, parseCell, type CellSelection } from "@/lib/heatmap/query";

/**
 * One heatmap view's state (one store per mounted view, never a module
 * singleton): the hovered cell (for the value card) and the selected cell,
 * which lives in the URL (`cell=`) so that a shared link shows it.
 */
export interface HoveredCell extends CellSelection {
  /** Where to put the value card, as fractions of the panel's width and height. */
  left: number;
  top: number;
}

export interface HeatmapViewState {
  hovered: HoveredCell | null;
  selected: CellSelection | null;
  hover: (cell: HoveredCell | null) => void;
  select: (cell: CellSelection | null) => void;
}

export type HeatmapViewStore = StoreApi<HeatmapViewState>;

function createHeatmapViewStore(selected: CellSelection | null): HeatmapViewStore {
  return createStore<HeatmapViewState>()((set) => ({
    hovered: null,
    selected,
    hover: (hovered) => set({ hovered }),
    select: (cell) => {
      set({ selected: cell });
      // replaceState, not a navigation: the server need not redraw the heatmap for a selection
      const url = new URL(window.location.href);
      if (cell) url.searchParams.set("cell", cellParam(cell));
      else url.searchParams.delete("cell");
      window.history.replaceState(null, "", url);
    },
  }));
}

const HeatmapViewContext = createContext<HeatmapViewStore | null>(null);

/** The selection starts from the URL as the browser has it (after Back, that is the URL the selection was written to). */
export function HeatmapViewProvider({ children }: { children: ReactNode }) {
  const params = useSearchParams();
  const [store] = useState(() => createHeatmapViewStore(parseCell(params.get("cell") ?? undefined)));
  return createElement(HeatmapViewContext.Provider, { value: store }, children);
}

function useHeatmapStore<T>(selector: (s: HeatmapViewState) => T): T {
  const store = useContext(HeatmapViewContext);
  if (!store) throw new Error("heatmap hooks need a HeatmapViewProvider");
  return useStore(store, selector);
}

const selectHovered = (s: HeatmapViewState) => s.hovered;
const selectSelected = (s: HeatmapViewState) => s.selected;
const selectHover = (s: HeatmapViewState) => s.hover;
const selectSelect = (s: HeatmapViewState) => s.select;

export const useHoveredCell = () => useHeatmapStore(selectHovered);
export const useSelectedCell = () => useHeatmapStore(selectSelected);
export const useHoverCell = () => useHeatmapStore(selectHover);
export const useSelectCell = () => useHeatmapStore(selectSelect);
