"use client";

import { createContext, useContext, useMemo, useState, type ReactNode } from "react";

/**
 * The suspects the panel shows, shared with the views drawn beside it on one
 * page (the heatmap marks their cells). One provider per page view.
 */
interface SuspectIds {
  ids: readonly string[];
  set: (ids: readonly string[]) => void;
}

const SuspectIdsContext = createContext<SuspectIds | null>(null);
const NONE: readonly string[] = [];

export function SuspectIdsProvider({ children }: { children: ReactNode }) {
  const [ids, set] = useState<readonly string[]>(NONE);
  const value = useMemo(() => ({ ids, set }), [ids]);
  return <SuspectIdsContext.Provider value={value}>{children}</SuspectIdsContext.Provider>;
}

/** The suspects' event ids; none outside a provider. */
export function useSuspectIds(): readonly string[] {
  return useContext(SuspectIdsContext)?.ids ?? NONE;
}

/** Publishes the suspects' event ids; a no-op outside a provider. */
export function usePublishSuspects(): (ids: readonly string[]) => void {
  return useContext(SuspectIdsContext)?.set ?? noop;
}

function noop(): void {}
