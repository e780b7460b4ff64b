import type { EdgeType, ObjectMetadataTrace, Topology, Trace, TraceEdge, TraceEvent } from "./types";

/** A handle to an event added to a TraceBuilder; becomes an id at build(). */
export type EventRef = number;

export type EventFields = Omit<TraceEvent, "id" | "extra">;

/** Top-level fields of a generated trace; events, edges and costs come from the builder. */
export interface TraceHeader {
  trace_id: string;
  task_id: string;
  system: string;
  topology: Topology;
  group_id?: string;
  rewards: Record<string, number>;
  metrics?: Record<string, number>;
  metadata?: Record<string, unknown>;
}

interface PendingEdge {
  src: EventRef;
  dst: EventRef;
  type: EdgeType;
}

/** Times are kept to the centisecond so that they read well in the UI and in JSON. */
function centiseconds(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * Assembles one trace (the demo scenarios, and the adapters through
 * lib/adapters/emit.ts). Events may be added in any
 * order (scenarios add them agent by agent); build() sorts them by time,
 * numbers them e1..eN in event order, and adds a `temporal` edge between
 * consecutive events of one agent unless a causal edge already joins them.
 * Every edge must go forward in time: a backwards edge is a bug in the
 * scenario and throws, so the built traces never carry warnings.
 */
export class TraceBuilder {
  /** `metadata`: what every built trace's metadata starts with (the header's keys win). */
  constructor(private readonly metadata: Record<string, unknown> = {}) {}

  private readonly events: EventFields[] = [];
  private readonly edges: PendingEdge[] = [];

  /** Adds an event (times rounded to 0.01 s) with edges from each [parent, edge type]. */
  add(fields: EventFields, ...parents: [EventRef, EdgeType][]): EventRef {
    const event: EventFields = { ...fields, t: centiseconds(fields.t) };
    if (fields.t_end !== undefined) event.t_end = Math.max(event.t, centiseconds(fields.t_end));
    const ref = this.events.push(event) - 1;
    for (const [parent, type] of parents) this.link(parent, ref, type);
    return ref;
  }

  /** Adds an edge; throws when it is a self-loop or goes back in time. */
  link(src: EventRef, dst: EventRef, type: EdgeType): void {
    const from = this.get(src);
    const to = this.get(dst);
    if (src === dst) throw new Error(`TraceBuilder: self-loop on event ${src}`);
    if (from.t > to.t) throw new Error(`TraceBuilder: ${type} edge goes back in time (${from.t} -> ${to.t})`);
    this.edges.push({ src, dst, type });
  }

  /** When an event is over: its t_end, or its t for an instant. */
  endOf(ref: EventRef): number {
    const event = this.get(ref);
    return event.t_end ?? event.t;
  }

  /** Tokens spent by the events added so far. */
  tokensSoFar(): number {
    return this.events.reduce((sum, e) => sum + (e.tokens ?? 0), 0);
  }

  /** The start time of an event. */
  timeOf(ref: EventRef): number {
    return this.get(ref).t;
  }

  build(header: TraceHeader): ObjectMetadataTrace {
    const order = this.events.map((_, i) => i).sort((a, b) => this.get(a).t - this.get(b).t || a - b);
    const position = new Int32Array(order.length);
    for (let pos = 0; pos < order.length; pos++) position[order[pos]!] = pos;
    const idOf = (ref: EventRef) => `e${position[ref]! + 1}`;

    const events: TraceEvent[] = order.map((ref) => ({ id: idOf(ref), ...this.get(ref) }));
    const pending = [...this.edges, ...this.temporalEdges(order)];
    pending.sort((a, b) => position[a.src]! - position[b.src]! || position[a.dst]! - position[b.dst]!);
    const edges: TraceEdge[] = pending.map((e) => ({ src: idOf(e.src), dst: idOf(e.dst), type: e.type }));

    return {
      trace_id: header.trace_id,
      task_id: header.task_id,
      system: header.system,
      topology: header.topology,
      ...(header.group_id !== undefined ? { group_id: header.group_id } : {}),
      project: "default",
      metadata: { ...this.metadata, ...header.metadata },
      events,
      edges,
      rewards: header.rewards,
      costs: costsOf(events),
      ...(header.metrics !== undefined ? { metrics: header.metrics } : {}),
    };
  }

  private temporalEdges(order: readonly EventRef[]): PendingEdge[] {
    const causal = new Set(this.edges.map((e) => `${e.src}>${e.dst}`));
    const previousByAgent = new Map<string, EventRef>();
    const temporal: PendingEdge[] = [];
    for (const ref of order) {
      const agent = this.get(ref).agent;
      const previous = previousByAgent.get(agent);
      if (previous !== undefined && !causal.has(`${previous}>${ref}`)) {
        temporal.push({ src: previous, dst: ref, type: "temporal" });
      }
      previousByAgent.set(agent, ref);
    }
    return temporal;
  }

  private get(ref: EventRef): EventFields {
    const event = this.events[ref];
    if (!event) throw new Error(`TraceBuilder: no event ${ref}`);
    return event;
  }
}

/** The paper's `costs` block, computed from the events. */
export function costsOf(events: readonly TraceEvent[]): Trace["costs"] {
  let tokens = 0;
  let toolCalls = 0;
  let messages = 0;
  let start = Infinity;
  let end = 0;
  for (const e of events) {
    tokens += e.tokens ?? 0;
    if (e.type === "tool_call") toolCalls++;
    if (e.type === "message") messages++;
    start = Math.min(start, e.t);
    end = Math.max(end, e.t_end ?? e.t);
  }
  const wallClock = events.length > 0 ? centiseconds(end - start) : 0;
  return { tokens, wall_clock_s: wallClock, tool_calls: toolCalls, messages };
}
