"use client";

import { useSyncExternalStore } from "react";
import { AGENDA_STORAGE_KEY, parseStoredAgenda, type AgendaItem } from "@/lib/meeting/agenda";

/**
 * The agenda in localStorage, read through useSyncExternalStore (no copy of
 * it in component state): writes here and in other tabs update every view.
 */
const CHANGE = "baton:agenda";
let cache: { raw: string | null; items: AgendaItem[] } = { raw: null, items: [] };

function read(): AgendaItem[] {
  let raw: string | null;
  try {
    raw = localStorage.getItem(AGENDA_STORAGE_KEY);
  } catch {
    raw = null;
  }
  if (raw !== cache.raw) cache = { raw, items: parseStoredAgenda(raw) };
  return cache.items;
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => event.key === AGENDA_STORAGE_KEY && onChange();
  window.addEventListener("storage", onStorage);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(CHANGE, onChange);
  };
}

const EMPTY: AgendaItem[] = [];

export function useAgenda(): AgendaItem[] {
  return useSyncExternalStore(subscribe, read, () => EMPTY);
}

export function saveAgenda(items: readonly AgendaItem[]): void {
  try {
    localStorage.setItem(AGENDA_STORAGE_KEY, JSON.stringify(items));
  } catch {
    // storage off: nothing to keep the agenda in; the present page still takes ?agenda=
  }
  window.dispatchEvent(new Event(CHANGE));
}
