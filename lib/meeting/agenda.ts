/**
 * The meeting agenda: an ordered list of views (same-site URLs with their
 * titles) that presentation mode steps through. Kept in localStorage or
 * carried by the present page's URL (`/present?agenda=<url>&agenda=<url>`),
 * so a shared link replays the same meeting. Pure: parsing refuses anything
 * but a path on this site, so an agenda cannot point a frame elsewhere.
 */
import { z } from "zod";

export interface AgendaItem {
  /** A path with its query, e.g. `/traces/t1/heatmap?kind=event-family`. */
  url: string;
  title: string;
}

export const AGENDA_STORAGE_KEY = "baton.agenda";
export const MAX_AGENDA_ITEMS = 50;

/** A same-site path ("/..." but not "//..."), at most 4000 characters; null otherwise. */
export function sitePath(raw: string): string | null {
  const url = raw.trim();
  if (!url.startsWith("/") || url.startsWith("//") || url.startsWith("/\\") || url.length > 4000) return null;
  // control characters (a newline in a path) have no place in a link
  for (let i = 0; i < url.length; i++) if (url.charCodeAt(i) < 0x20) return null;
  return url;
}

const itemSchema = z.object({ url: z.string(), title: z.string().max(300) });

/** The agenda stored as JSON; anything unreadable gives an empty agenda (a bad entry never breaks the page). */
export function parseStoredAgenda(json: string | null): AgendaItem[] {
  if (!json) return [];
  try {
    const parsed = z.array(itemSchema).safeParse(JSON.parse(json));
    if (!parsed.success) return [];
    return parsed.data.flatMap((i) => {
      const url = sitePath(i.url);
      return url ? [{ url, title: i.title || url }] : [];
    }).slice(0, MAX_AGENDA_ITEMS);
  } catch {
    return [];
  }
}

/** The agenda given by `agenda=` parameters (titles are the paths). */
export function agendaFromParams(values: readonly string[]): AgendaItem[] {
  return values.flatMap((v) => {
    const url = sitePath(v);
    return url ? [{ url, title: url }] : [];
  }).slice(0, MAX_AGENDA_ITEMS);
}

/** The present page's link for an agenda. */
export function presentHref(items: readonly AgendaItem[], slide = 1): string {
  const q = new URLSearchParams();
  for (const item of items) q.append("agenda", item.url);
  if (slide > 1) q.set("slide", String(slide));
  return `/present?${q.toString()}`;
}

export function addItem(items: readonly AgendaItem[], item: AgendaItem): AgendaItem[] {
  const url = sitePath(item.url);
  if (!url || items.length >= MAX_AGENDA_ITEMS) return [...items];
  return [...items, { url, title: item.title || url }];
}

export function removeItem(items: readonly AgendaItem[], index: number): AgendaItem[] {
  return items.filter((_, i) => i !== index);
}

export function moveItem(items: readonly AgendaItem[], index: number, by: -1 | 1): AgendaItem[] {
  const to = index + by;
  if (index < 0 || index >= items.length || to < 0 || to >= items.length) return [...items];
  const next = [...items];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/** The URL a view is shown at inside presentation mode: same view, `present=1` (no site chrome, large type). */
export function presentedUrl(url: string): string {
  const [path, query = ""] = url.split("?", 2) as [string, string?];
  const q = new URLSearchParams(query);
  q.set("present", "1");
  return `${path}?${q.toString()}`;
}

/** Slide number (1-based) from the URL, kept within the agenda. */
export function slideIndex(raw: string | undefined, count: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) return 0;
  return Math.min(n, Math.max(1, count)) - 1;
}
