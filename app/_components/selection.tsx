"use client";

import { createContext, useContext, useSyncExternalStore, type ReactNode } from "react";

/** Where the selection is kept for this browser tab, so a reload or a full page load keeps it too. */
const STORAGE_KEY = "baton.trace-selection";
const EMPTY: ReadonlySet<string> = new Set();

/**
 * The ticked traces of this tab, as an external store over sessionStorage
 * (React reads it with useSyncExternalStore: the server and the first
 * client render see an empty selection, then the stored one). When storage
 * is refused the selection lives in memory for the page.
 */
const listeners = new Set<() => void>();
let memory: string | null = null;
let cache: { raw: string | null; set: ReadonlySet<string> } = { raw: null, set: EMPTY };

function readRaw(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return memory;
  }
}

function parse(raw: string | null): ReadonlySet<string> {
  try {
    const value: unknown = JSON.parse(raw ?? "[]");
    return Array.isArray(value) ? new Set(value.filter((x): x is string => typeof x === "string")) : EMPTY;
  } catch {
    return EMPTY;
  }
}

function snapshot(): ReadonlySet<string> {
  const raw = readRaw();
  if (raw !== cache.raw) cache = { raw, set: parse(raw) };
  return cache.set;
}

function write(next: ReadonlySet<string>): void {
  const raw = JSON.stringify([...next]);
  memory = raw;
  try {
    window.sessionStorage.setItem(STORAGE_KEY, raw);
  } catch {
    // storage full or refused: the memory copy holds for this page
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

interface Selection {
  selected: ReadonlySet<string>;
  toggle: (traceId: string, on: boolean) => void;
  setAll: (traceIds: readonly string[], on: boolean) => void;
  clear: () => void;
}

const SelectionContext = createContext<Selection | null>(null);

/**
 * The traces ticked in the list. The selection survives paging, sorting,
 * filtering and a reload in this tab: ticking on page two adds to what was
 * ticked on page one.
 */
export function SelectionProvider({ children }: { children: ReactNode }) {
  const selected = useSyncExternalStore(subscribe, snapshot, () => EMPTY);
  const change = (ids: readonly string[], on: boolean) => {
    const next = new Set(snapshot());
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    write(next);
  };
  const value: Selection = {
    selected,
    toggle: (id, on) => change([id], on),
    setAll: (ids, on) => change(ids, on),
    clear: () => write(EMPTY),
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
