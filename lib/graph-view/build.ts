/**
 * From a prepared trace (analysis, metrics roles) to the graph API's
 * columns: events in event order with lane, roles and a label, edges sorted
 * by their destination so each page carries the edges ending in it. Pure;
 * the server caches the result per trace.
 */
import { creditHeader, type CreditColumns, type PreparedTrace } from "../credit";
import { ROLE } from "../metrics/roles";
import { SPEC_VERSION } from "../metrics/types";
import { clockOf } from "../format";
import { eventSummary } from "../trace/summary";
import { EDGE_TYPES, EVENT_TYPES, FAMILIES, type Family } from "../trace/types";
import { assignLanes } from "./lanes";
import { GRAPH_PAGE_MAX, type GraphCreditPage, type GraphEventsPage, type GraphMeta } from "./wire";

export interface GraphModel {
  readonly meta: GraphMeta;
  /** Array index of the event at each seq (event order). */
  readonly order: Int32Array;
  readonly ids: readonly string[];
  readonly labels: readonly string[];
  readonly t: Float64Array;
  readonly tEnd: readonly (number | null)[];
  readonly type: Uint8Array;
  readonly lane: Int32Array;
  readonly roles: Uint16Array;
  /** Edges by destination seq: those ending at s are `[dstStart[s], dstStart[s + 1])`, in input order. */
  readonly dstStart: Int32Array;
  readonly edgeSrc: Int32Array;
  readonly edgeDst: Int32Array;
  readonly edgeType: Uint8Array;
}

const TYPE_INDEX = new Map<string, number>(EVENT_TYPES.map((t, i) => [t, i]));
const EDGE_INDEX = new Map<string, number>(EDGE_TYPES.map((t, i) => [t, i]));

/** Builds the columns of a trace. O(events + edges). */
export function buildGraphModel(p: PreparedTrace, pageSize: number = GRAPH_PAGE_MAX): GraphModel {
  const { graph, trace } = p.analysis;
  const n = graph.n;
  const order = graph.order;
  const inOrder = Array.from(order, (i) => trace.events[i]!);
  const { lanes, laneOf } = assignLanes(inOrder);
  const ids = inOrder.map((e) => e.id);
  // the summary's fields only: no content, no content_ref (a hash that says nothing on a node)
  const labels = inOrder.map((e) => eventSummary({ type: e.type, from: e.from, to: e.to, tool: e.tool, decision: e.decision, reason: e.reason, status: e.status, trusted: e.trusted }));
  const t = Float64Array.from(inOrder, (e) => e.t);
  const tEnd = inOrder.map((e) => e.t_end ?? null);
  const type = Uint8Array.from(inOrder, (e) => TYPE_INDEX.get(e.type) ?? 0);
  const roles = Uint16Array.from(order, (i) => p.roles[i]!);

  const edges = trace.edges.filter((e) => graph.indexOf.has(e.src) && graph.indexOf.has(e.dst));
  const seqOf = (id: string) => graph.rank[graph.indexOf.get(id)!]!;
  const dstStart = new Int32Array(n + 1);
  for (const e of edges) dstStart[seqOf(e.dst) + 1]!++;
  for (let s = 0; s < n; s++) dstStart[s + 1] = dstStart[s + 1]! + dstStart[s]!;
  const fill = dstStart.slice(0, n);
  const edgeSrc = new Int32Array(edges.length);
  const edgeDst = new Int32Array(edges.length);
  const edgeType = new Uint8Array(edges.length);
  for (const e of edges) {
    const d = seqOf(e.dst);
    const slot = fill[d]!++;
    edgeSrc[slot] = seqOf(e.src);
    edgeDst[slot] = d;
    edgeType[slot] = EDGE_INDEX.get(e.type) ?? 0;
  }

  let tMax = -Infinity;
  for (const e of inOrder) tMax = Math.max(tMax, e.t_end ?? e.t);
  const meta: GraphMeta = {
    version: SPEC_VERSION,
    trace_id: trace.trace_id,
    events: n,
    edges: edges.length,
    page_size: pageSize,
    pages: Math.ceil(n / pageSize),
    event_types: EVENT_TYPES,
    edge_types: EDGE_TYPES,
    roles: { ...ROLE },
    lanes,
    t_min: t[0]!,
    t_max: tMax,
    timed: tMax > t[0]!,
    clock: clockOf(trace.metadata),
    terminal: graph.rank[graph.terminal]!,
    stop: graph.stop >= 0 ? graph.rank[graph.stop]! : null,
  };
  return { meta, order, ids, labels, t, tEnd, type, lane: laneOf, roles, dstStart, edgeSrc, edgeDst, edgeType };
}

/** The events with seq in [from, from + limit) and the edges ending in them. */
export function eventsPage(model: GraphModel, from: number, limit: number): GraphEventsPage {
  const n = model.meta.events;
  const start = Math.min(from, n);
  const end = Math.min(n, start + limit);
  const e0 = model.dstStart[start]!;
  const e1 = model.dstStart[end]!;
  return {
    version: SPEC_VERSION,
    from: start,
    count: end - start,
    next: end < n ? end : null,
    id: model.ids.slice(start, end),
    t: Array.from(model.t.subarray(start, end)),
    t_end: model.tEnd.slice(start, end),
    type: Array.from(model.type.subarray(start, end)),
    lane: Array.from(model.lane.subarray(start, end)),
    roles: Array.from(model.roles.subarray(start, end)),
    label: model.labels.slice(start, end),
    edges: {
      src: Array.from(model.edgeSrc.subarray(e0, e1)),
      dst: Array.from(model.edgeDst.subarray(e0, e1)),
      type: Array.from(model.edgeType.subarray(e0, e1)),
    },
  };
}

/** Credit columns (indexed by array position) as one page in event order. */
export function creditPage(model: GraphModel, c: CreditColumns, from: number, limit: number, withFamilies: boolean): GraphCreditPage {
  const n = model.meta.events;
  const start = Math.min(from, n);
  const end = Math.min(n, start + limit);
  const column = (values: Float64Array) => {
    const out = new Array<number>(end - start);
    for (let s = start; s < end; s++) out[s - start] = values[model.order[s]!]!;
    return out;
  };
  let byFamily: Record<Family, number[]> | null = null;
  if (withFamilies && c.byFamily) {
    const families = c.byFamily;
    byFamily = Object.fromEntries(FAMILIES.map((f) => [f, column(families[f])])) as Record<Family, number[]>;
  }
  return {
    ...creditHeader(c),
    from: start,
    count: end - start,
    next: end < n ? end : null,
    total: column(c.total),
    by_family: byFamily,
  };
}
