import type { EdgeType, StopReason, Trace, TraceEdge, TraceEvent } from "../trace/types";
import { costsOf } from "../trace/builder";
import { DEMO_SOURCE } from "./source";
import { Rng, deriveSeed } from "../util/random";
import { ReadyQueue } from "./ready-queue";
import * as text from "./synthetic-text";

/**
 * Big traces of a realistic shape, for benchmarks. The orchestrator works in
 * waves: a spawn decision fans out to up to 12 workers, each worker runs a
 * chain of tool_call -> tool_result -> message steps (messaging peers now
 * and then), returns, and the orchestrator aggregates (fan-in). A final stop
 * decision follows the last aggregate.
 *
 * Events are produced by a small event loop that always advances the worker
 * that is ready first, so the events array is in time order and every edge
 * goes from an earlier event to a later one: valid, acyclic, no warnings.
 * About 1.5 edges per event.
 */

export interface SyntheticTraceOptions {
  /** Exact number of events (>= 1). */
  events: number;
  seed: number;
  traceId?: string;
  taskId?: string;
  groupId?: string;
  /** Include a ~100-character content on every event (default true). The structure is the same either way. */
  content?: boolean;
}

const EVENTS_PER_WAVE = 500;
const EVENTS_PER_WORKER = 60;
const MAX_WORKERS_PER_WAVE = 12;
/** Probability that a message goes to a peer (a `message` edge) rather than to the orchestrator. */
const PEER_MESSAGE_RATE = 0.85;
/** Probability that a tool call also depends on an older tool result. */
const EXTRA_DEPENDENCY_RATE = 0.85;

const ORCHESTRATOR = "orchestrator";

interface Worker {
  name: string;
  role: text.WorkerRole;
  topic: number;
  quota: number;
  spawn: number;
  last: number;
  lastType: TraceEvent["type"] | null;
  latestResult: number;
  previousResult: number;
  inbox: number[];
  returned: boolean;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Appends events and edges; ids are e1..eN in array (= time) order. */
class TraceWriter {
  readonly events: TraceEvent[] = [];
  readonly edges: TraceEdge[] = [];
  constructor(readonly withContent: boolean) {}

  emit(event: Omit<TraceEvent, "id" | "t" | "t_end" | "content">, t: number, duration: number | null, content: () => string): number {
    const index = this.events.length;
    const full: TraceEvent = { id: `e${index + 1}`, t: round2(t), ...event };
    if (duration !== null) full.t_end = round2(t + duration);
    if (this.withContent) full.content = content();
    this.events.push(full);
    return index;
  }

  link(src: number, dst: number, type: EdgeType): void {
    this.edges.push({ src: this.events[src]!.id, dst: this.events[dst]!.id, type });
  }
}

/** A synthetic trace with exactly `opts.events` events. */
export function syntheticTrace(opts: SyntheticTraceOptions): Trace {
  const total = opts.events;
  if (!Number.isInteger(total) || total < 1) throw new RangeError(`syntheticTrace: events must be an integer >= 1, got ${total}`);
  const rng = new Rng(opts.seed);
  const words = new Rng(deriveSeed(opts.seed, 1)); // a separate stream, so content on/off gives the same structure
  const out = new TraceWriter(opts.content !== false);
  const succeeded = rng.chance(0.6);

  const budget = total - 1; // the final stop decision
  let lastAggregate = -1;
  let clock = 0;
  let waves = 0;
  if (budget < 4) {
    for (let i = 0; i < budget; i++) {
      const isLast = i === budget - 1;
      const e = out.emit({ type: isLast ? "aggregate" : "orchestrator_decision", agent: ORCHESTRATOR, role: ORCHESTRATOR, ...(isLast ? {} : { decision: "continue" as const }), tokens: 300 }, clock, 2, () => text.aggregateText(words, i, 0));
      if (lastAggregate >= 0) out.link(lastAggregate, e, "causal");
      lastAggregate = e;
      clock += 2.5;
    }
  } else {
    waves = Math.max(1, Math.round(budget / EVENTS_PER_WAVE));
    let workerCount = 0;
    for (let wave = 0; wave < waves; wave++) {
      const size = Math.floor(budget / waves) + (wave < budget % waves ? 1 : 0);
      const result = runWave(out, rng, words, { wave, size, clock, previous: lastAggregate, firstWorker: workerCount });
      lastAggregate = result.aggregate;
      clock = result.end;
      workerCount += result.workers;
    }
  }

  const reason: StopReason = succeeded ? rng.pick(["quality_met", "complete"] as const) : rng.pick(["budget_exhausted", "max_turns"] as const);
  const stop = out.emit({ type: "orchestrator_decision", agent: ORCHESTRATOR, role: ORCHESTRATOR, decision: "stop", reason, tokens: 150 }, clock, 1.5, () => `Stop (${reason}): final report assembled from ${waves} waves of workers.`);
  if (lastAggregate >= 0) out.link(lastAggregate, stop, "causal");

  return {
    trace_id: opts.traceId ?? `synthetic-${opts.seed}-${total}`,
    task_id: opts.taskId ?? `synthetic-task-${opts.seed}`,
    system: "synthetic-fanout",
    topology: "centralized",
    ...(opts.groupId !== undefined ? { group_id: opts.groupId } : {}),
    project: "default",
    metadata: { source: DEMO_SOURCE, generator: "syntheticTrace", seed: opts.seed, waves },
    events: out.events,
    edges: out.edges,
    rewards: { team: succeeded ? 1 : -1 },
    costs: costsOf(out.events),
  };
}

/**
 * `count` synthetic traces, built one at a time so a benchmark can stream
 * them. Consecutive runs of 4 share a task_id and group_id (GRPO-style groups).
 */
export function* syntheticTraces(count: number, eventsPerTrace: number, seed: number): Generator<Trace, void, undefined> {
  for (let i = 0; i < count; i++) {
    const group = Math.floor(i / 4);
    yield syntheticTrace({
      events: eventsPerTrace,
      seed: deriveSeed(seed, i),
      traceId: `synthetic-${seed}-${i}`,
      taskId: `synthetic-task-${seed}-${group}`,
      groupId: `synthetic-group-${seed}-${group}`,
    });
  }
}

interface WaveInput {
  wave: number;
  size: number;
  clock: number;
  previous: number;
  firstWorker: number;
}

/** One fan-out/fan-in wave of exactly `size` events (>= 4). */
function runWave(out: TraceWriter, rng: Rng, words: Rng, input: WaveInput): { aggregate: number; end: number; workers: number } {
  const { wave, size } = input;
  const count = Math.max(1, Math.min(Math.round(size / EVENTS_PER_WORKER), MAX_WORKERS_PER_WAVE, Math.floor((size - 2) / 2)));
  const quotas = splitWork(rng, size - 2 - 2 * count, count);
  const topic = rng.int(0, 99);

  const decision = out.emit(
    { type: "orchestrator_decision", agent: ORCHESTRATOR, role: ORCHESTRATOR, decision: wave % 3 === 2 ? "delegate" : "spawn", tokens: rng.int(300, 900) },
    input.clock,
    rng.range(2, 6),
    () => text.planText(wave + 1, count, topic),
  );
  if (input.previous >= 0) out.link(input.previous, decision, "causal");

  const workers: Worker[] = [];
  const queue = new ReadyQueue();
  let spawnAt = out.events[decision]!.t_end! + 0.1;
  for (let i = 0; i < count; i++) {
    const role = rng.pick(text.WORKER_ROLES);
    const name = `${role}_${input.firstWorker + i + 1}`;
    const spawn = out.emit({ type: "spawn", agent: ORCHESTRATOR, role: ORCHESTRATOR, to: name, tokens: rng.int(60, 160) }, spawnAt, null, () => text.briefText(topic, i));
    out.link(decision, spawn, "spawn");
    if (i > 0) out.link(spawn - 1, spawn, "temporal");
    workers.push({ name, role, topic: topic + i, quota: quotas[i]!, spawn, last: -1, lastType: null, latestResult: -1, previousResult: -1, inbox: [], returned: false });
    spawnAt += 0.05;
  }
  for (let i = 0; i < count; i++) queue.push(i, spawnAt + rng.range(0.3, 1.5));

  const returns: number[] = [];
  let lastReturnEnd = spawnAt;
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    const worker = workers[id]!;
    const t = queue.timeOf(id);
    const next = workerStep(out, rng, words, workers, worker, t);
    if (next === null) {
      returns.push(worker.last);
      lastReturnEnd = Math.max(lastReturnEnd, out.events[worker.last]!.t_end!);
    } else queue.push(id, next);
  }

  const aggregate = out.emit({ type: "aggregate", agent: ORCHESTRATOR, role: ORCHESTRATOR, tokens: rng.int(800, 2500) }, lastReturnEnd + 0.3, rng.range(2, 8), () => text.aggregateText(words, wave + 1, count));
  for (const r of returns) out.link(r, aggregate, "aggregate");
  out.link(decision + count, aggregate, "temporal");
  return { aggregate, end: out.events[aggregate]!.t_end! + 0.2, workers: count };
}

/** Emits the worker's next event at time t; returns when it is ready again, or null after its return. */
function workerStep(out: TraceWriter, rng: Rng, words: Rng, all: readonly Worker[], w: Worker, t: number): number | null {
  const who = { agent: w.name, role: w.role };
  const predecessor = w.last >= 0 ? w.last : w.spawn;
  let index: number;
  let ready: number;
  if (w.quota === 0) {
    index = out.emit({ type: "return", ...who, from: w.name, to: ORCHESTRATOR, tokens: rng.int(300, 1200) }, t, rng.range(1, 6), () => text.returnText(words, w.topic));
    out.link(predecessor, index, w.last >= 0 ? "causal" : "spawn");
    w.returned = true;
    ready = Infinity;
  } else if (w.lastType === "tool_call") {
    const call = out.events[w.last]!;
    const failed = rng.chance(0.03);
    const tool = call.tool ?? "tool";
    index = out.emit({ type: "tool_result", ...who, tool, tokens: rng.int(150, 2000), trusted: tool !== "fetch", ...(failed ? { status: "error" } : {}) }, t, null, () => text.toolResultText(words, tool, w.topic, failed));
    out.link(predecessor, index, "return");
    w.previousResult = w.latestResult;
    w.latestResult = index;
    ready = t + rng.range(0.3, 2.5);
  } else if (w.quota >= 2 && rng.chance(w.lastType === "message" ? 0.7 : 0.55)) {
    const tool = text.toolOf(rng, w.role);
    const duration = rng.range(0.5, 4);
    index = out.emit({ type: "tool_call", ...who, tool, tokens: rng.int(30, 150) }, t, duration, () => text.toolCallText(words, tool, w.topic));
    out.link(predecessor, index, w.last < 0 ? "spawn" : w.lastType === "tool_result" ? "tool_dependency" : "causal");
    const older = predecessor === w.latestResult ? w.previousResult : w.latestResult;
    if (older >= 0 && rng.chance(EXTRA_DEPENDENCY_RATE)) out.link(older, index, "tool_dependency");
    ready = t + duration;
  } else {
    const peer = pickPeer(rng, all, w);
    const to = peer?.name ?? ORCHESTRATOR;
    const duration = rng.range(0.8, 5);
    index = out.emit({ type: "message", ...who, from: w.name, to, tokens: rng.int(100, 600) }, t, duration, () => text.messageText(words, w.topic, to));
    out.link(predecessor, index, w.last < 0 ? "spawn" : w.lastType === "tool_result" ? "causal" : "temporal");
    peer?.inbox.push(index);
    ready = t + duration + rng.range(0.05, 0.5);
  }
  if (w.inbox.length > 0 && out.events[index]!.type !== "tool_result") deliverInbox(out, w, index, t);
  if (w.quota > 0) w.quota--;
  w.lastType = out.events[index]!.type;
  w.last = index;
  return w.returned ? null : ready;
}

/** Links the messages that have finished arriving by time t to event `index`; later ones wait. */
function deliverInbox(out: TraceWriter, w: Worker, index: number, t: number): void {
  const waiting: number[] = [];
  for (const message of w.inbox) {
    if ((out.events[message]!.t_end ?? 0) <= round2(t)) out.link(message, index, "message");
    else waiting.push(message);
  }
  w.inbox = waiting;
}

/** A random other worker that has not returned yet, or null (then the message goes to the orchestrator). */
function pickPeer(rng: Rng, all: readonly Worker[], self: Worker): Worker | null {
  if (all.length < 2 || !rng.chance(PEER_MESSAGE_RATE)) return null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const peer = rng.pick(all);
    if (peer !== self && !peer.returned) return peer;
  }
  return null;
}

/** Splits `work` events among `count` workers, unevenly but summing exactly. */
function splitWork(rng: Rng, work: number, count: number): number[] {
  const weights = Array.from({ length: count }, () => rng.range(0.5, 1.5));
  const sum = weights.reduce((a, b) => a + b, 0);
  const quotas = weights.map((w) => Math.floor((work * w) / sum));
  let rest = work - quotas.reduce((a, b) => a + b, 0);
  for (let i = 0; rest > 0; i = (i + 1) % count, rest--) quotas[i]!++;
  return quotas;
}
