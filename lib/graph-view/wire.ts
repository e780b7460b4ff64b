/**
 * The graph API's wire format (`GET /api/traces/{id}/graph`): columnar
 * arrays with string tables, paged by event window, so that a 100,000-event
 * trace arrives as a few responses of at most ~2 MB instead of one huge
 * array of objects. Shared by the server (which builds it) and the client
 * worker (which reads it). Absent values are `null`, never omitted.
 */
import type { RoleName } from "../metrics/roles";
import type { SpecVersion } from "../metrics/types";
import type { EdgeType, EventType, Family } from "../trace/types";

/** Most events one `part=events` page carries (about 1.8 MB of JSON with its edges). */
export const GRAPH_PAGE_MAX = 20_000;
/** Most events one `part=credit` page carries without `families=1`. */
export const CREDIT_PAGE_MAX = 50_000;
/** Most events one `part=credit&families=1` page carries (nine numbers per event). */
export const CREDIT_FAMILIES_PAGE_MAX = 2_000;

/** One lane: an agent, in display order (orchestrator on top, each sub-agent under its parent). */
export interface GraphLane {
  agent: string;
  /** The role the agent's own events carry most often, else that of the spawn that created it. */
  role: string | null;
  /** Lane index of the agent that spawned it, or null for a root. */
  parent: number | null;
  /** 0 for a root, parent's depth + 1 otherwise. */
  depth: number;
  first_t: number;
  /** Last `t` or `t_end` of the agent's events (SPEC.md "Agent lane"). */
  last_t: number;
  events: number;
}

/** `part=meta`: everything about the trace except the per-event columns. */
export interface GraphMeta {
  version: SpecVersion;
  trace_id: string;
  events: number;
  edges: number;
  /** Events per `part=events` page; page k covers seq `[k * page_size, (k + 1) * page_size)`. */
  page_size: number;
  pages: number;
  /** String tables: `type` columns index into these. */
  event_types: readonly EventType[];
  edge_types: readonly EdgeType[];
  /** Bit of each metrics role in the `roles` column (lib/metrics/roles.ts). */
  roles: Record<RoleName, number>;
  lanes: GraphLane[];
  t_min: number;
  t_max: number;
  /** False when every event has the same `t`: then only even spacing by event order makes sense. */
  timed: boolean;
  /** What `t` counts: seconds, or step indexes for sources without timestamps (metadata.clock = "step_index"). */
  clock: "seconds" | "steps";
  /** Event order index (seq) of the terminal event and of the stop event (null when none). */
  terminal: number;
  stop: number | null;
}

/** Edges as three parallel columns; `src`/`dst` are event seq numbers. */
export interface EdgeColumns {
  src: number[];
  dst: number[];
  type: number[];
}

/** `part=events&from=&limit=`: the events with seq in `[from, from + count)`, and the edges that end in them. */
export interface GraphEventsPage {
  version: SpecVersion;
  from: number;
  count: number;
  /** `from` of the next page, or null after the last one. */
  next: number | null;
  id: string[];
  t: number[];
  t_end: (number | null)[];
  /** Index into `meta.event_types`. */
  type: number[];
  /** Lane index (into `meta.lanes`). */
  lane: number[];
  /** Metrics role flags (see `meta.roles`). */
  roles: number[];
  /** A one-line summary from the event's fields (never its content). */
  label: string[];
  /** Edges whose `dst` is in this page, in input order. */
  edges: EdgeColumns;
}

/** `part=credit&method=&preset=&normalize=&w.<family>=&from=&limit=&families=`: credit as columns, in event order. */
export interface GraphCreditPage {
  version: SpecVersion;
  method: string;
  preset: string;
  weights: Record<Family, number>;
  normalize: boolean;
  r_total: number;
  families: Record<Family, number | null>;
  from: number;
  count: number;
  next: number | null;
  /** C(v) per event (the method's advantage for the baselines). */
  total: number[];
  /** credit_f(v) per family, only with `families=1` and method ccp; else null. */
  by_family: Record<Family, number[]> | null;
}
