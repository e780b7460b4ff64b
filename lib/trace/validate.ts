import type { z } from "zod";
import { traceSchema } from "./schema";
import { callOrder, callProblems } from "./calls";
import { decisiveErrorProblems } from "./decisive-errors";
import { labelProblems, type ExtendedLabels } from "./extended-labels";
import { cleanJson } from "./text";
import { DECISIONS, FAMILIES, STOP_REASONS, type Topology, type Trace, type TraceEvent } from "./types";

/** One problem or warning, located by a JSON path such as `$.events[3].t`. */
export interface Problem {
  path: string;
  message: string;
}

export type ValidationResult =
  /** `labels`: the human labels an extended trace carries (absent from the trace itself) */
  | { ok: true; trace: Trace; warnings: Problem[]; labels?: ExtendedLabels }
  | { ok: false; problems: Problem[] };

/** Non-paper topologies and the paper's enum value they map onto (SPEC.md section 1). */
export const TOPOLOGY_ALIASES: Readonly<Record<string, Topology>> = {
  star: "centralized",
  tree: "hierarchical",
  chain: "mixed",
  graph: "mixed",
};

const KNOWN_EVENT_KEYS = new Set([
  "id", "t", "type", "agent", "role", "from", "to", "tool", "content_ref", "trusted",
  "t_end", "content", "tokens", "status", "decision", "reason", "rewards",
]);

/** Warnings of one kind beyond this many are summarised in one line, never dropped silently. */
const MAX_WARNINGS_PER_KIND = 200;

/** Formats a zod/JSON path as `$.a[0].b`. */
export function jsonPath(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(key)) ? `.${String(key)}` : `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/**
 * Validates one trace: shape (zod), then the structural rules of SPEC.md
 * section 1. Reports every problem it can find, each with its JSON path.
 * `base` is the path of the trace in the request (`$` or `$[4]`).
 */
export function validateTrace(raw: unknown, base = "$"): ValidationResult {
  // Text replacement and the depth limit come first: every later step (and every number) sees the stored text.
  const cleaned = cleanJson(raw, base);
  if (cleaned.problems.length > 0) return { ok: false, problems: cleaned.problems };
  const input = normaliseTopology(cleaned.value);
  const parsed = traceSchema.safeParse(input);
  const problems: Problem[] = parsed.success ? [] : zodProblems(parsed.error, base);
  const structural = structuralProblems(input, base);
  problems.push(...structural.problems);
  if (!parsed.success || problems.length > 0) return { ok: false, problems: dedupe(problems) };

  const { annotations, adjudications, decisive_errors, decisive_error_adjudication, hacking_flags: _derived, ...data } = parsed.data;
  const carriesLabels = [annotations, adjudications, decisive_errors, decisive_error_adjudication].some((x) => x !== undefined);
  const labels: ExtendedLabels | undefined = carriesLabels
    ? { annotations: annotations ?? [], adjudications: adjudications ?? [], decisive_errors: decisive_errors ?? [], decisive_error_adjudication: decisive_error_adjudication ?? null }
    : undefined;
  if (labels) {
    const eventIds = new Set(data.events.map((e) => e.id));
    const labelled = [...labelProblems(labels, eventIds, base), ...decisiveErrorProblems(labels, eventIds, base)];
    if (labelled.length > 0) return { ok: false, problems: labelled };
  }
  if (data.calls !== undefined) {
    const called = callProblems(data.calls, new Set(data.events.map((e) => e.id)), base);
    if (called.length > 0) return { ok: false, problems: called };
  }
  const { calls, ...rest } = data;
  const trace: Trace = {
    ...rest,
    events: data.events.map(toEvent),
    // stored and exported in call order, so that an export's round trip is exact
    ...(calls !== undefined && calls.length > 0 && { calls: callOrder(calls) }),
  };
  const metadata = topologyDetail(cleaned.value, data.metadata);
  if (metadata === undefined) delete trace.metadata;
  else trace.metadata = metadata;
  const warnings = [
    ...capped(cleaned.warnings, base, "more strings have U+0000 or lone surrogates replaced by U+FFFD"),
    ...lenientWarnings(trace, base),
    ...structural.warnings,
  ];
  return { ok: true, trace, warnings, ...(labels && { labels }) };
}

const DECISION_SET: ReadonlySet<string> = new Set(DECISIONS);
const REASON_SET: ReadonlySet<string> = new Set(STOP_REASONS);
const FAMILY_SET: ReadonlySet<string> = new Set(FAMILIES);

/** SPEC.md section 1, "lenient where the paper is": values outside Baton's lists are kept, with a warning each. */
function lenientWarnings(trace: Trace, base: string): Problem[] {
  const decisions: Problem[] = [];
  const rewards: Problem[] = [];
  trace.events.forEach((e, i) => {
    if (e.decision !== undefined && !DECISION_SET.has(e.decision)) {
      decisions.push({ path: `${base}.events[${i}].decision`, message: `decision "${e.decision}" is not one of ${DECISIONS.join(", ")}: kept, and counts as neither stop nor continue` });
    }
    if (e.reason !== undefined && !REASON_SET.has(e.reason)) {
      decisions.push({ path: `${base}.events[${i}].reason`, message: `reason "${e.reason}" is not one of ${STOP_REASONS.join(", ")}: kept, and counts as "other"` });
    }
    for (const key of Object.keys(e.rewards ?? {})) {
      if (!FAMILY_SET.has(key)) rewards.push({ path: jsonPath(`${base}.events[${i}].rewards`, [key]), message: `"${key}" is not a reward family: kept and exported, enters no credit` });
    }
  });
  return [...capped(decisions, `${base}.events`, "more events have a decision or reason outside the lists"), ...capped(rewards, `${base}.events`, "more event reward keys are not families")];
}

function normaliseTopology(raw: unknown): unknown {
  if (!isRecord(raw) || typeof raw.topology !== "string") return raw;
  const mapped = TOPOLOGY_ALIASES[raw.topology.toLowerCase()];
  return mapped ? { ...raw, topology: mapped } : raw;
}

/** A topology mapped onto the paper's enum keeps its own name in metadata.topology_detail (when metadata is an object or absent). */
function topologyDetail(raw: unknown, metadata: unknown): unknown {
  if (!isRecord(raw) || typeof raw.topology !== "string") return metadata;
  if (!TOPOLOGY_ALIASES[raw.topology.toLowerCase()]) return metadata;
  if (metadata !== undefined && !isRecord(metadata)) return metadata;
  return { topology_detail: raw.topology, ...metadata };
}

function toEvent(e: Record<string, unknown>): TraceEvent {
  const event: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(e)) {
    if (value === undefined) continue;
    if (KNOWN_EVENT_KEYS.has(key)) event[key] = value;
    else extra[key] = value;
  }
  if (Object.keys(extra).length > 0) event.extra = extra;
  return event as unknown as TraceEvent;
}

function zodProblems(error: z.ZodError, base: string): Problem[] {
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const keys = issue.keys.map((k) => `"${k}"`).join(", ");
      const where = issue.path.length === 0 ? "top-level fields (put them in \"metadata\")" : "fields here";
      return { path: jsonPath(base, issue.path), message: `unknown field(s) ${keys}; the paper's schema allows no other ${where}` };
    }
    return { path: jsonPath(base, issue.path), message: issue.message };
  });
}

interface Structural {
  problems: Problem[];
  warnings: Problem[];
}

/**
 * Rules that need the whole trace. Runs on the raw input, defensively, so
 * that these problems are reported even when some fields have the wrong shape.
 */
function structuralProblems(raw: unknown, base: string): Structural {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  if (!isRecord(raw) || !Array.isArray(raw.events)) return { problems, warnings };
  const events: unknown[] = raw.events;
  const edges: unknown[] = Array.isArray(raw.edges) ? raw.edges : [];

  const indexById = new Map<string, number>();
  const times: (number | undefined)[] = [];
  events.forEach((e, i) => {
    if (!isRecord(e)) return;
    times[i] = typeof e.t === "number" ? e.t : undefined;
    if (typeof e.t === "number" && typeof e.t_end === "number" && e.t_end < e.t) {
      problems.push({ path: `${base}.events[${i}].t_end`, message: `t_end (${e.t_end}) is before t (${e.t})` });
    }
    if (typeof e.id !== "string" || e.id === "") return;
    const first = indexById.get(e.id);
    if (first !== undefined) {
      problems.push({ path: `${base}.events[${i}].id`, message: `duplicate event id "${e.id}" (first at events[${first}])` });
    } else indexById.set(e.id, i);
  });

  const touched = new Uint8Array(events.length);
  const causal: [number, number][] = [];
  const backwards: Problem[] = [];
  edges.forEach((edge, j) => {
    if (!isRecord(edge)) return;
    const src = typeof edge.src === "string" ? indexById.get(edge.src) : undefined;
    const dst = typeof edge.dst === "string" ? indexById.get(edge.dst) : undefined;
    if (typeof edge.src === "string" && src === undefined) {
      problems.push({ path: `${base}.edges[${j}].src`, message: `no event has id "${edge.src}"` });
    }
    if (typeof edge.dst === "string" && dst === undefined) {
      problems.push({ path: `${base}.edges[${j}].dst`, message: `no event has id "${edge.dst}"` });
    }
    if (src === undefined || dst === undefined) return;
    touched[src] = 1;
    touched[dst] = 1;
    if (src === dst) {
      problems.push({ path: `${base}.edges[${j}]`, message: `self-loop on event "${String(edge.src)}"` });
      return;
    }
    if (edge.type !== "temporal") causal.push([src, dst]);
    const ts = times[src];
    const td = times[dst];
    if (ts !== undefined && td !== undefined && ts > td) {
      backwards.push({ path: `${base}.edges[${j}]`, message: `edge goes back in time: ${String(edge.src)} (t=${ts}) -> ${String(edge.dst)} (t=${td})` });
    }
  });

  const cycle = findCycle(events.length, causal);
  if (cycle) {
    const ids = cycle.map((i) => String((events[i] as Record<string, unknown>).id));
    problems.push({ path: `${base}.edges`, message: `cycle among non-temporal edges: ${[...ids, ids[0]].join(" -> ")}` });
  }

  const isolated: Problem[] = [];
  events.forEach((e, i) => {
    if (touched[i] === 0 && isRecord(e) && typeof e.id === "string") {
      isolated.push({ path: `${base}.events[${i}]`, message: `event "${e.id}" has no edges` });
    }
  });
  warnings.push(...capped(backwards, `${base}.edges`, "more edges go back in time"));
  warnings.push(...capped(isolated, `${base}.events`, "more events have no edges"));
  return { problems, warnings };
}

function capped(list: Problem[], path: string, what: string): Problem[] {
  if (list.length <= MAX_WARNINGS_PER_KIND) return list;
  return [...list.slice(0, MAX_WARNINGS_PER_KIND), { path, message: `${list.length - MAX_WARNINGS_PER_KIND} ${what}` }];
}

/** Returns the node indices of one directed cycle, or null when the graph is acyclic. */
export function findCycle(n: number, edges: readonly [number, number][]): number[] | null {
  const out: number[][] = Array.from({ length: n }, () => []);
  for (const [a, b] of edges) out[a]!.push(b);
  const state = new Uint8Array(n); // 0 new, 1 on stack, 2 done
  const parent = new Int32Array(n).fill(-1);
  for (let root = 0; root < n; root++) {
    if (state[root] !== 0) continue;
    const stack: [number, number][] = [[root, 0]];
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const [v, k] = top;
      const next = out[v]![k];
      if (next === undefined) {
        state[v] = 2;
        stack.pop();
        continue;
      }
      top[1] = k + 1;
      if (state[next] === 0) {
        state[next] = 1;
        parent[next] = v;
        stack.push([next, 0]);
      } else if (state[next] === 1) {
        const cycle = [v];
        for (let u = v; u !== next; ) {
          u = parent[u]!;
          cycle.push(u);
        }
        return cycle.reverse();
      }
    }
  }
  return null;
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
