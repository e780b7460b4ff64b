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
      return url ? [{ url, title: i.title || viewTitle(url) }] : [];
    }).slice(0, MAX_AGENDA_ITEMS);
  } catch {
    return [];
  }
}

const PAGE_TITLES: Readonly<Record<string, string>> = {
  "/": "Traces",
  "/dashboard": "Dashboard",
  "/decisions": "Decision analytics",
  "/attribution": "Failure attribution",
  "/heatmaps": "Credit by role and family",
  "/datasets": "Datasets",
  "/queues": "Labeling queues",
};
const TRACE_VIEWS: Readonly<Record<string, string>> = { "": "Trace", graph: "Graph of", heatmap: "Credit heatmap of", label: "Labels of" };
/** The filters a title names, in this order, as a person would say them. */
const SCOPE_KEYS = [["project", "project"], ["system", "system"], ["task_id", "task"], ["group_id", "group"], ["policy_version", "checkpoint"], ["text", "search"], ["q", "search"]] as const;

const decoded = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * A title a person would write for a view, from its URL alone: "Graph of
 * t1", "Dashboard · system AG2", "t1 vs t2". For links that come without
 * one (a shared agenda, a pasted link); unknown pages keep their path.
 */
export function viewTitle(url: string): string {
  const [path = "/", query = ""] = url.split("?", 2) as [string, string?];
  const q = new URLSearchParams(query);
  const scope = SCOPE_KEYS.flatMap(([key, word]) => (q.get(key) ? [`${word} ${q.get(key)}`] : []));
  const withScope = (title: string) => [title, ...scope].join(" · ");
  const trace = /^\/traces\/([^/]+)(?:\/(graph|heatmap|label))?\/?$/.exec(path);
  if (trace) return `${TRACE_VIEWS[trace[2] ?? ""]} ${decoded(trace[1]!)}`;
  const group = /^\/groups\/([^/]+)\/?$/.exec(path);
  if (group) return `Group ${decoded(group[1]!)}`;
  if (path === "/compare" && q.get("a") && q.get("b")) return `${q.get("a")} vs ${q.get("b")}`;
  const page = PAGE_TITLES[path];
  return page ? withScope(page) : url;
}

/** The agenda given by `agenda=` parameters, with the `title=` given for each (in the same order), else a title from its URL. */
export function agendaFromParams(values: readonly string[], titles: readonly string[] = []): AgendaItem[] {
  return values.flatMap((v, i) => {
    const url = sitePath(v);
    const title = titles[i]?.trim().slice(0, 300);
    return url ? [{ url, title: title || viewTitle(url) }] : [];
  }).slice(0, MAX_AGENDA_ITEMS);
}

/** The present page's link for an agenda: each view and its title, so a shared link shows the same titles. */
export function presentHref(items: readonly AgendaItem[], slide = 1): string {
  const q = new URLSearchParams();
  for (const item of items) q.append("agenda", item.url);
  for (const item of items) q.append("title", item.title);
  if (slide > 1) q.set("slide", String(slide));
  return `/present?${q.toString()}`;
}

export function addItem(items: readonly AgendaItem[], item: AgendaItem): AgendaItem[] {
  const url = sitePath(item.url);
  if (!url || items.length >= MAX_AGENDA_ITEMS) return [...items];
  return [...items, { url, title: item.title || viewTitle(url) }];
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

/** A view's own query parameters, without the presentation mode's `present` (a filter schema does not know it). */
export function withoutPresent<T extends Record<string, unknown>>(values: T): Omit<T, "present"> {
  const { present: _present, ...rest } = values;
  return rest;
}

/** Slide number (1-based) from the URL, kept within the agenda. */
export function slideIndex(raw: string | undefined, count: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) return 0;
  return Math.min(n, Math.max(1, count)) - 1;
}
