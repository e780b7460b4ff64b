"use client";

import { createContext, useContext, useState, type ReactNode } from "react";

interface Selection {
  selected: ReadonlySet<string>;
  toggle: (traceId: string, on: boolean) => void;
  setAll: (traceIds: readonly string[], on: boolean) => void;
  clear: () => void;
}

const SelectionContext = createContext<Selection | null>(null);

/** The traces ticked on this page of the list (one store per mounted list, never global). */
export function SelectionProvider({ children }: { children: ReactNode }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const value: Selection = {
    selected,
    toggle: (id, on) => setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    }),
    setAll: (ids, on) => setSelected(on ? new Set(ids) : new Set()),
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
