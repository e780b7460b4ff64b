"use client";

import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";

/** Where the selection is kept for this browser tab, so a reload or a full page load keeps it too. */
const STORAGE_KEY = "baton.trace-selection";

function stored(): string[] {
  try {
    const value: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? "[]");
    return Array.isArray(value) ? value.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

interface Selection {
  selected: ReadonlySet<string>;
  toggle: (traceId: string, on: boolean) => void;
  setAll: (traceIds: readonly string[], on: boolean) => void;
  clear: () => void;
}

const SelectionContext = createContext<Selection | null>(null);

/**
 * The traces ticked in the list (one store per mounted list, never global).
 * It lives above the table, so it survives paging, sorting and filtering:
 * ticking on page two adds to what was ticked on page one. It is kept in the
 * tab's sessionStorage (read after hydration, so server and client first
 * render the same empty selection).
 */
export function SelectionProvider({ children }: { children: ReactNode }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const loaded = useRef(false);
  useEffect(() => {
    if (!loaded.current) {
      loaded.current = true;
      const ids = stored();
      if (ids.length > 0) setSelected(new Set(ids));
      return;
    }
    try {
      window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...selected]));
    } catch {
      // storage full or refused: the selection still holds for this page
    }
  }, [selected]);
  const value: Selection = {
    selected,
    toggle: (id, on) => setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    }),
    setAll: (ids, on) => setSelected((s) => {
      const next = new Set(s);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    }),
    clear: () => setSelected(new Set()),
  };
  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>;
}

export function useSelection(): Selection {
  const s = useContext(SelectionContext);
  if (s === null) throw new Error("useSelection outside SelectionProvider");
  return s;
}

export function RowCheckbox({ traceId }: { traceId: string }) {
  const { selected, toggle } = useSelection();
  return <input type="checkbox" aria-label={`select ${traceId}`} checked={selected.has(traceId)} onChange={(e) => toggle(traceId, e.target.checked)} data-testid="row-select" />;
}

export function AllCheckbox({ traceIds }: { traceIds: readonly string[] }) {
  const { selected, setAll } = useSelection();
  const all = traceIds.length > 0 && traceIds.every((id) => selected.has(id));
  return <input type="checkbox" aria-label="select every trace on this page" checked={all} onChange={(e) => setAll(traceIds, e.target.checked)} />;
}
