import { TraceBuilder, costsOf, type EventFields, type EventRef, type TraceHeader } from "../trace/builder";
import type { EdgeType } from "../trace/types";
import type { AdaptedTrace } from "./types";

/**
 * The TraceBuilder (lib/trace/builder.ts), used for real data: events in time order with
 * ids e1..eN, temporal edges between consecutive events of one agent, and
 * every causal edge pointing forward in time. Adds what imported data needs:
 * extra event properties (labels such as `mistake` or the source step), and
 * a costs block that says so when the source has no clock.
 */

export type { EventRef } from "../trace/builder";
export type Parent = [EventRef, EdgeType];
type Extra = { [extra: string]: unknown };
export type AdaptedFields = EventFields & Extra;
/** Fields of an event whose time the caller sets. */
export type UntimedFields = Omit<EventFields, "t"> & Extra;

/** Carries each event's builder ref through build(), which renumbers events in time order. */
const REF_KEY = "__adapter_ref";

export class AdaptedTraceBuilder {
  private readonly inner = new TraceBuilder();
  private readonly extras = new Map<EventRef, Record<string, unknown>>();
  private count = 0;
  private ids: string[] | null = null;

  /**
   * Adds an event with edges from its parents. A source clock that runs
   * backwards across a causal edge (an effect logged before its cause) is
   * lifted to the parent's time, and the original time kept in `t_source`.
   */
  add(fields: AdaptedFields, ...parents: Parent[]): EventRef {
    const latestParent = Math.max(-Infinity, ...parents.map(([ref]) => this.inner.timeOf(ref)));
    const event: AdaptedFields = fields.t < latestParent ? { ...fields, t: latestParent, t_source: fields.t } : fields;
    if (event.t_end !== undefined && event.t_end < event.t) event.t_end = event.t;
    const ref = this.inner.add({ ...event, [REF_KEY]: this.count } as EventFields, ...parents);
    this.count++;
    return ref;
  }

  /** Adds extra properties to an event already added (labels known only later, such as a mistake step). */
  annotate(ref: EventRef, extra: Record<string, unknown>): void {
    this.extras.set(ref, { ...this.extras.get(ref), ...extra });
  }

  /** The id an event got at build(). */
  idOf(ref: EventRef): string {
    const id = this.ids?.[ref];
    if (id === undefined) throw new Error(`AdaptedTraceBuilder: no id for event ${ref} (build() first)`);
    return id;
  }

  link(src: EventRef, dst: EventRef, type: EdgeType): void {
    this.inner.link(src, dst, type);
  }

  timeOf(ref: EventRef): number {
    return this.inner.timeOf(ref);
  }

  /**
   * `clock: "step_index"` marks sources without timestamps: t is the step's
   * position, so the wall clock is unknown and reported as 0 rather than as
   * a number of steps. `tokens` overrides the event sum with a total the
   * source reports for the whole run (when no event carries tokens).
   */
  build(header: TraceHeader, opts: { clock: "seconds" | "step_index"; tokens?: number }): AdaptedTrace {
    const trace = this.inner.build({ ...header, metadata: { ...header.metadata, clock: opts.clock } });
    const ids: string[] = [];
    const events = trace.events.map((built) => {
      const { [REF_KEY]: ref, ...event } = built as unknown as Record<string, unknown> & { [REF_KEY]: number };
      ids[ref] = event.id as string;
      return { ...event, ...this.extras.get(ref) };
    });
    this.ids = ids;
    const costs = costsOf(trace.events);
    if (opts.clock === "step_index") costs.wall_clock_s = 0;
    if (opts.tokens !== undefined && costs.tokens === 0) costs.tokens = opts.tokens;
    const replaced = { count: 0 };
    const clean = replaceNul({ events, metadata: trace.metadata }, replaced);
    const metadata = replaced.count > 0 ? { ...clean.metadata, nul_characters_replaced: replaced.count } : trace.metadata;
    return { ...trace, metadata, events: clean.events, costs } as AdaptedTrace;
  }
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000, which some sources carry
 * (PDF extraction debris in MARBLE's research tasks): each is replaced by
 * U+FFFD and counted, never dropped silently. Returns the same object when
 * there is nothing to replace.
 */
export function replaceNul<T>(value: T, replaced: { count: number }): T {
  if (typeof value === "string") {
    if (!value.includes("\u0000")) return value;
    replaced.count += value.split("\u0000").length - 1;
    return value.replaceAll("\u0000", "\uFFFD") as T;
  }
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item: unknown) => {
      const next = replaceNul(item, replaced);
      if (next !== item) changed = true;
      return next;
    });
    return (changed ? out : value) as T;
  }
  if (value !== null && typeof value === "object") {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = replaceNul(item, replaced);
      if (out[key] !== item) changed = true;
    }
    return (changed ? out : value) as T;
  }
  return value;
}

/** A short stable id for long texts (task prompts), so reruns of one task share a task_id. FNV-1a, 2 x 32 bits. */
export function shortHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0").slice(0, 4);
}

/** A slug for ids built from names: lower case, runs of other characters as "-". */
export function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9.]+/g, "-").replace(/^-+|-+$/g, "");
}
