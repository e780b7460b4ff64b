"use client";

import { createContext, createElement, useContext, useState, type ReactNode } from "react";
import { createStore, useStore, type StoreApi } from "zustand";

/** The presentation's state (one store per presentation): which slide of the agenda is on screen, kept in the URL (`slide=`). */
export interface PresenterState {
  index: number;
  count: number;
  step: (by: number) => void;
  go: (index: number) => void;
}

function createPresenterStore(index: number, count: number): StoreApi<PresenterState> {
  return createStore<PresenterState>()((set, get) => {
    const go = (next: number) => {
      const clamped = Math.max(0, Math.min(get().count - 1, next));
      if (clamped === get().index) return;
      set({ index: clamped });
      const url = new URL(window.location.href);
      url.searchParams.set("slide", String(clamped + 1));
      window.history.replaceState(null, "", url);
    };
    return { index, count, go, step: (by) => go(get().index + by) };
  });
}

const PresenterContext = createContext<StoreApi<PresenterState> | null>(null);

export function PresenterProvider({ index, count, children }: { index: number; count: number; children: ReactNode }) {
  const [store] = useState(() => createPresenterStore(index, count));
  return createElement(PresenterContext.Provider, { value: store }, children);
}

function usePresenter<T>(selector: (s: PresenterState) => T): T {
  const store = useContext(PresenterContext);
  if (!store) throw new Error("presenter hooks need a PresenterProvider");
  return useStore(store, selector);
}

const selectIndex = (s: PresenterState) => s.index;
const selectStep = (s: PresenterState) => s.step;
const selectGo = (s: PresenterState) => s.go;

export const useSlideIndex = () => usePresenter(selectIndex);
export const useStepSlide = () => usePresenter(selectStep);
export const useGoToSlide = () => usePresenter(selectGo);
