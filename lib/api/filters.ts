import { z } from "zod";
import { TRACE_DETECTORS } from "@/lib/hacking/types";
import { EVENT_TYPES, TOPOLOGIES } from "@/lib/trace/types";
import { decodeListCursor, LIST_CURSOR_PATTERN } from "./list-cursor";
import { cursorParam, decimalInt, decimalNumber, filterText, PG_INT_MAX } from "./params";

/** Query parameters of `GET /api/traces` and the trace list page (SPEC.md section 7). */
export const VERDICTS = ["premature", "late", "unknown", "ok"] as const;

const optionalText = filterText.optional();
/** a decimal number (SPEC.md section 7: `0x10` is a 400) */
const decimal = decimalNumber(-1e15, 1e15).optional();
/** a day (inclusive bounds of created_at, UTC) */
const day = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD").refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "must be a real date").optional();
const cursor = z
  .string()
  .max(64)
  .regex(LIST_CURSOR_PATTERN, "must be a cursor returned by an earlier page")
  .refine((c) => { const d = decodeListCursor(c); return d.id <= PG_INT_MAX && (d.value == null || Number.isFinite(d.value)); }, "must be a cursor returned by an earlier page")
  .optional();

/** Columns the trace list sorts by (`created` is the default, newest first). */
export const LIST_SORTS = ["created", "events", "tokens", "cost", "duration", "agents", "errors", "e1", "match"] as const;
export type ListSort = (typeof LIST_SORTS)[number];

export const traceListQuery = z.object({
  project: optionalText,
  system: optionalText,
  task_id: optionalText,
  group_id: optionalText,
  /** part of the system, task id or group id (case-insensitive): the list's filter boxes */
  system_contains: optionalText,
  task_contains: optionalText,
  group_contains: optionalText,
  topology: z.enum(TOPOLOGIES).optional(),
  verdict: z.enum(VERDICTS).optional(),
  q: optionalText,
  /** search over event content, agents, tools and metadata: words and "quoted phrases", all must occur */
  text: optionalText,
  /** traces with at least one event of this type / agent / tool */
  event_type: z.enum(EVENT_TYPES).optional(),
  agent: optionalText,
  tool: optionalText,
  /** `error`: traces with at least one event whose status is error */
  status: z.enum(["error"]).optional(),
  /** `1`: some event is tainted (SPEC.md section 4, E4); `0`: none */
  tainted: z.enum(["0", "1"]).optional(),
  /** traces this hacking detector flags (docs/metrics.md, "Hacking diagnostics") */
  flag: z.enum(TRACE_DETECTORS).optional(),
  /** E1: `1`, `0` or `none` (null) */
  e1: z.enum(["0", "1", "none"]).optional(),
  /** replays and forks of interventions (docs/replay.md): `0` leaves them out, `1` keeps only them */
  replay: z.enum(["0", "1"]).optional(),
  /** created_at from this day (inclusive) to that day (inclusive), UTC */
  from: day,
  to: day,
  tokens_min: decimal,
  tokens_max: decimal,
  cost_min: decimal,
  cost_max: decimal,
  /** trace_ids, comma-separated: a selection (bulk export) */
  ids: z.string().trim().min(1).max(20000).transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean)).pipe(z.array(filterText).min(1).max(500)).optional(),
  /** default: `match` (whole-word and phrase matches first) with a content search, else `created` */
  sort: z.enum(LIST_SORTS).optional(),
  dir: z.enum(["asc", "desc"]).default("desc"),
  /** the page after this row (`next_cursor`) */
  cursor,
  /** the page before this row (`prev_cursor`) */
  before: cursor,
  limit: decimalInt(1, 500).default(50),
}).transform(({ sort, ...q }) => {
  const chosen: ListSort = sort ?? (q.text ? "match" : "created");
  return { ...q, sort: chosen };
});
export type TraceListQuery = z.infer<typeof traceListQuery>;

/** The parameters that choose traces (not their order or page): what a dataset export or a queue takes over from the list. */
export const LIST_FILTER_KEYS = ["project", "system", "task_id", "group_id", "system_contains", "task_contains", "group_contains", "topology", "verdict", "q", "text", "event_type", "agent", "tool", "status", "tainted", "flag", "e1", "replay", "from", "to", "tokens_min", "tokens_max", "cost_min", "cost_max", "ids"] as const;

export const eventPageQuery = z.object({
  cursor: cursorParam.optional(),
  limit: decimalInt(1, 5000).default(500),
  content: z.enum(["0", "1"]).default("0"),
});

/** Reads URLSearchParams into a plain object, dropping empty values (an empty filter means no filter). */
export function searchParamsObject(params: URLSearchParams | Record<string, string | string[] | undefined>): Record<string, string> {
  // a plain object (pages hand it to client components); `__proto__` is no parameter of any route, so it is ignored like any unknown one
  const out: Record<string, string> = {};
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  for (const [key, value] of entries) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== "" && key !== "__proto__") out[key] = first;
  }
  return out;
}
