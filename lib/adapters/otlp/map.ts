import type { EventType, Topology } from "../../trace/types";
import type { EventRef, Parent } from "../emit";
import { evaluationsBySpan, rewardsFrom, type Evaluation } from "../otlp-evaluations";
import { compareStart, secondsSince, textAttr, type OtlpSpan } from "../otlp-span";
import { AdapterInputError, type AdaptedTrace } from "../types";
import { classifySpan, refine, type SpanNode } from "./classify";
import { GuardedTraceBuilder } from "./graph";
import { batonAttribute, taskIdOf } from "./ids";
import { refineLayers } from "./layers";
import { provenanceOf, unmappedOf } from "./provenance";
import { stepsOf, TurnRunner, type Closing, type TurnHost } from "./turns";
import { bookkeepingOnly, frameworkNotes, NotARunError } from "./warnings";
import { pushTo } from "../../util/group";

/**
 * OpenTelemetry spans of one trace, from any of the convention families
 * (GenAI, Vercel AI SDK, OpenInference incl. LangGraph, OpenAI Agents and
 * LlamaIndex, OpenLLMetry, Mastra, AgentOps, logfire, Google ADK), as one
 * orchestration trace. Pure: spans in, a trace
 * in Baton's wire form out. docs/otlp.md has the rules; in short:
 * - the run (a workflow root, a graph, OpenAI Agents' "Agent workflow") is
 *   no lane; its request is the first event (a `message` from the user to
 *   the first agent) and its answer the terminal `aggregate`;
 * - the run's top-level agent turns run in sequence; a handoff
 *   (transfer_to_<agent>, a handoff span, graph.node.parent_id) is a
 *   `spawn` from the agent that handed over; a delegated agent that hands
 *   back `return`s to its delegator;
 * - spans whose parent is missing are kept, placed by time; what the spans
 *   do not say (an agent name, the request) is noted in metadata.otlp.notes,
 *   never made up;
 * - inside a turn, turns.ts decides what each model call, tool and nested
 *   agent becomes, and which step consumed which result.
 */

export function otlpSpansToTrace(spans: readonly OtlpSpan[], opts: { file?: string } = {}): AdaptedTrace {
  return new OtlpRunMapper(spans).map(opts.file);
}

interface Mapped {
  input: EventRef;
  output: EventRef;
  role: string;
}

class OtlpRunMapper implements TurnHost {
  readonly b = new GuardedTraceBuilder();
  readonly handoffs = new Map<string, { ref: EventRef; from: string }>();
  private readonly mapped = new Map<string, Mapped>();
  private readonly delegations = new Set<string>();
  private readonly origin: bigint;
  private readonly roots: SpanNode[];
  private readonly parentOf = new Map<string, string>();
  /** what the trace page says about the mapping (spans attached without their parent, what the spans do not say) */
  private readonly notes: string[] = [];
  /** the run's own output (TurnHost.answer) */
  answer?: string;

  constructor(private readonly spans: readonly OtlpSpan[]) {
    if (spans.length === 0) throw new AdapterInputError("otlp", "otlp", ["no spans"]);
    this.origin = spans.reduce((min, s) => (BigInt(s.startTimeUnixNano) < min ? BigInt(s.startTimeUnixNano) : min), BigInt(spans[0]!.startTimeUnixNano));
    this.roots = this.tree();
    refine(this.roots);
    refineLayers(this.roots);
  }

  at(nanos: string): number {
    return secondsSince(this.origin, nanos);
  }

  record(span: OtlpSpan, input: EventRef, output: EventRef, role: string): void {
    if (!this.mapped.has(span.spanId) || role !== "agent") this.mapped.set(span.spanId, { input, output, role });
  }

  reads(span: OtlpSpan, ids: readonly string[]): string[] {
    const inputs = Object.entries(span.attributes).filter(([key, value]) => INPUT_KEY.test(key) && typeof value === "string") as [string, string][];
    return ids.filter((id) => inputs.some(([, value]) => value === id || value.includes(JSON.stringify(id))));
  }

  delegated(from: string, to: string): void {
    if (from !== to) this.delegations.add(`${from}\u0000${to}`);
  }

  map(file?: string): AdaptedTrace {
    const run = this.roots.length === 1 && this.roots[0]!.c.role === "run" ? this.roots[0]! : undefined;
    const service = textAttr(this.roots[0]!.span.resource, "service.name");
    this.answer = run?.c.output;
    const bookkeeping = bookkeepingOnly(this.nodes());
    if (bookkeeping !== undefined) throw new NotARunError(file ?? `trace ${this.spans[0]!.traceId}`, bookkeeping);
    const turns = this.topTurns(run, service);
    this.notes.push(...frameworkNotes(this.nodes()));
    if (turns.length === 0) throw new AdapterInputError("otlp", file ?? `trace ${this.spans[0]!.traceId}`, [`none of its ${this.spans.length} span(s) is a GenAI or OpenInference agent, LLM or tool span`]);
    const request = this.requestOf(run, turns);
    if (request === undefined) this.notes.push("no span holds the run's request (a user message or an agent's input): the trace starts with the first agent's step");
    const runner = new TurnRunner(this);
    const first = turns[0]!;
    const start = run?.span.startTimeUnixNano ?? first.node.span.startTimeUnixNano;
    const ask = request !== undefined ? this.b.add({ t: this.at(start), type: "message", agent: first.name, from: "user", to: first.name, content: request, ...(run ? { span_id: run.span.spanId } : {}) }) : undefined;
    let previous: { name: string; final?: EventRef; tail: Parent[]; closing: Closing } | undefined;
    const delegator = new Map<string, string>();
    turns.forEach((turn, i) => {
      const next = turns[i + 1]?.name;
      const handoff = this.handoffs.get(turn.name);
      let entry: Parent[];
      if (handoff !== undefined) {
        this.handoffs.delete(turn.name);
        delegator.set(turn.name, handoff.from);
        entry = [[handoff.ref, "spawn"]];
      } else if (turn.node.c.parentAgent !== undefined && turn.node.c.parentAgent !== turn.name && previous !== undefined) {
        // graph.node.parent_id: the parent agent hands over to this one (CrewAI: the crew's previous agent)
        const parent = turn.node.c.parentAgent;
        delegator.set(turn.name, parent);
        this.delegated(parent, turn.name);
        const spawn = this.b.add({ t: this.at(turn.node.span.startTimeUnixNano), type: "spawn", agent: parent, to: turn.name, span_id: turn.node.span.spanId, ...(turn.node.c.input !== undefined ? { content: turn.node.c.input } : {}) }, ...(previous.final !== undefined ? [[previous.final, "message"] as Parent] : previous.tail));
        entry = [[spawn, "spawn"]];
      } else if (previous?.closing.kind === "return" && previous.final !== undefined) entry = [[previous.final, "return"]];
      else if (previous !== undefined) entry = previous.tail;
      else entry = ask !== undefined ? [[ask, "message"]] : [];
      const nextParent = turns[i + 1]?.node.c.parentAgent;
      const closing: Closing =
        next === undefined ? { kind: "aggregate" } : delegator.get(turn.name) === next && next !== turn.name ? { kind: "return", to: next } : nextParent === turn.name && next !== turn.name ? { kind: "message", to: next } : { kind: "none" };
      const result = runner.run(turn.node, turn.name, entry, closing, handoff?.from);
      // a turn that made no event and was entered from none (an agent span with no steps after one that left nothing to follow) records nothing
      const first = result.final ?? entry[0]?.[0] ?? result.tail[0]?.[0];
      const last = result.final ?? result.tail[0]?.[0] ?? entry[0]?.[0];
      if (turn.implicit !== true && first !== undefined && last !== undefined) this.record(turn.node.span, first, last, "agent");
      previous = { name: turn.name, ...result, closing };
    });
    const closed = previous!.final ?? previous!.tail[0]?.[0];
    if (run !== undefined && (ask ?? closed) !== undefined) this.mapped.set(run.span.spanId, { input: ask ?? closed!, output: closed ?? ask!, role: "run" });
    const linksSkipped = this.linkSpans();
    const unattached = this.attachEvaluations();
    const unmapped = unmappedOf(this.spans, this.mapped, new Set(this.nodes().filter((n) => n.c.absorbed === true).map((n) => n.span.spanId)));
    const group = batonAttribute(this.spans, "baton.group_id");
    const conversation = [...this.spans].sort(compareStart).map((s) => textAttr(s.attributes, "gen_ai.conversation.id", "session.id")).find((c) => c !== undefined);
    return this.b.build(
      {
        trace_id: this.spans[0]!.traceId,
        task_id: taskIdOf(this.spans, request, this.spans[0]!.traceId),
        ...(group !== undefined ? { group_id: group } : {}),
        system: service ?? "unknown_service",
        topology: this.topology(),
        rewards: {},
        metadata: {
          source: provenanceOf(this.spans, service, file),
          started_at: new Date(Number(this.origin / 1_000_000n)).toISOString(),
          root_span: this.roots[0]!.span.name,
          unmapped_spans: unmapped.count,
          otlp: { families: [...new Set(this.nodes().map((n) => n.c.family))].sort(), unmapped, ...(conversation !== undefined ? { conversation_id: conversation } : {}), ...(this.notes.length > 0 ? { notes: this.notes } : {}) },
          ...(linksSkipped > 0 ? { links_skipped: linksSkipped } : {}),
          ...(unattached > 0 ? { evaluations_unattached: unattached } : {}),
        },
      },
      { clock: "seconds" },
    );
  }

  /**
   * The run's top-level agent turns in start order: the agents found below
   * the run (looking through plumbing), a root agent itself, or, when no
   * span is an agent, the steps grouped by the agent they name (ADK's
   * `adk_agent_name`, LlamaIndex's `current_agent_name`: one turn per run of
   * consecutive steps of one agent), else one turn named after the service
   * that holds every step (and a note that no span names an agent).
   */
  private topTurns(run: SpanNode | undefined, service: string | undefined): { name: string; node: SpanNode; implicit?: true }[] {
    const agentsBelow = (nodes: readonly SpanNode[]): SpanNode[] => nodes.flatMap((n) => (n.c.role === "agent" ? [n] : n.c.role === "other" || n.c.role === "run" ? agentsBelow(n.children) : []));
    const tops = run !== undefined ? agentsBelow(run.children) : agentsBelow(this.roots);
    const holder = run ?? { span: this.roots[0]!.span, c: { family: "genai" as const, role: "run" as const }, children: this.roots };
    // a lane is never named after a span-name template (logfire's `OpenAI Agents trace: {name}`)
    const fallback = [service, run?.c.name, this.roots[0]!.span.name].find((n) => n !== undefined && !/\{[^}]*\}/.test(n)) ?? "unknown_service";
    if (tops.length > 0) return this.withLooseSteps(tops, holder, fallback);
    if (stepsOf(holder.children).length === 0 && !["llm", "tool"].includes(this.roots[0]!.c.role)) return [];
    const children = run !== undefined ? run.children : this.roots;
    const named = namedTurns(children, holder);
    if (named.length > 0) return named;
    this.notes.push(`no span names an agent: the run's steps are one lane, ${fallback === service ? `named after the service (${fallback})` : `"${fallback}"`}`);
    return [{ name: fallback, node: { ...holder, children }, implicit: true }];
  }

  /**
   * The agent turns, with the model calls and tools that are in no agent
   * span (their agent's span was not exported) as turns of their own
   * between them: named by the agent the steps name, else `fallback`, with a note.
   */
  private withLooseSteps(tops: SpanNode[], holder: SpanNode, fallback: string): { name: string; node: SpanNode; implicit?: true }[] {
    const turns = tops.sort((a, b) => compareStart(a.span, b.span)).map((node) => ({ name: node.c.name ?? node.span.name, node }));
    const loose = (nodes: readonly SpanNode[]): SpanNode[] => nodes.flatMap((n) => (n.c.role === "other" || n.c.role === "run" ? loose(n.children) : n.c.role === "llm" || n.c.role === "tool" ? [n] : []));
    const steps = loose(holder.children);
    if (steps.length === 0) return turns;
    const out: { name: string; node: SpanNode; implicit?: true }[] = [];
    let pending: SpanNode[] = [];
    const flush = () => {
      if (pending.length === 0) return;
      const named = namedTurns(pending, holder);
      out.push(...(named.length > 0 ? named : [{ name: fallback, node: { span: holder.span, c: { family: holder.c.family, role: "agent" as const, name: fallback }, children: pending }, implicit: true as const }]));
      pending = [];
    };
    const byStart = [...turns.map((t) => ({ span: t.node.span, turn: t })), ...steps.map((n) => ({ span: n.span, step: n }))].sort((a, b) => compareStart(a.span, b.span));
    for (const x of byStart) {
      if ("step" in x) pending.push(x.step);
      else {
        flush();
        out.push(x.turn);
      }
    }
    flush();
    this.notes.push(`${steps.length} model call(s) or tool(s) are in no agent span (their agent's span is not in the export): kept in the lane of the agent they name, else one named ${fallback}`);
    return out;
  }

  /** The run's request: the run's or first agent's input, the task that holds the first agent (AgentOps' CrewAI task), else the first model call's first user message. */
  private requestOf(run: SpanNode | undefined, turns: readonly { node: SpanNode }[]): string | undefined {
    const llms = this.nodes().filter((n) => n.c.role === "llm").sort((a, b) => compareStart(a.span, b.span));
    const first = turns[0]?.node;
    const holder = first?.parent !== undefined && first.parent !== run && first.parent.c.role === "other" ? first.parent.c.request : undefined;
    return run?.c.request ?? first?.c.request ?? holder ?? llms.map((n) => n.c.request).find((r) => r !== undefined);
  }

  private nodes(): SpanNode[] {
    const out: SpanNode[] = [];
    const walk = (n: SpanNode) => {
      out.push(n);
      n.children.forEach(walk);
    };
    this.roots.forEach(walk);
    return out;
  }

  private topology(): Topology {
    const children = new Map<string, string[]>();
    for (const key of this.delegations) {
      const [from, to] = key.split("\u0000") as [string, string];
      pushTo(children, from, to);
    }
    const depth = (agent: string, seen: Set<string>): number => {
      if (seen.has(agent)) return 0;
      seen.add(agent);
      return Math.max(0, ...(children.get(agent) ?? []).map((c) => 1 + depth(c, seen)));
    };
    const max = Math.max(0, ...[...children.keys()].map((a) => depth(a, new Set())));
    return max >= 2 ? "hierarchical" : max === 1 ? "centralized" : "harness";
  }

  /** Span links within the trace -> causal edges from the linked span's outcome. Returns how many could not be added. */
  private linkSpans(): number {
    let skipped = 0;
    for (const span of this.spans) {
      for (const link of span.links) {
        if (link.traceId !== span.traceId) continue;
        const src = this.mapped.get(link.spanId);
        const dst = this.mapped.get(span.spanId);
        if (!src || !dst || !(this.b.tryLink(src.output, dst.input, "causal") || this.b.tryLink(src.input, dst.input, "causal"))) skipped++;
      }
    }
    return skipped;
  }

  /** Evaluation events -> rewards on the event they judge (the nearest mapped span up the tree). Returns how many found no event. */
  private attachEvaluations(): number {
    const byAnchor = new Map<EventRef, { evaluations: Evaluation[]; type: EventType }>();
    let unattached = 0;
    for (const [spanId, evaluations] of evaluationsBySpan(this.spans)) {
      let id: string | undefined = spanId;
      while (id !== undefined && !this.mapped.has(id)) id = this.parentOf.get(id);
      const mapped = id !== undefined ? this.mapped.get(id) : undefined;
      if (!mapped) {
        unattached += evaluations.length;
        continue;
      }
      const tool = mapped.role === "tool";
      const ref = tool ? mapped.input : mapped.output;
      const entry = byAnchor.get(ref) ?? { evaluations: [], type: tool ? "tool_call" : mapped.role === "create_agent" ? "spawn" : "message" };
      entry.evaluations.push(...evaluations);
      byAnchor.set(ref, entry);
    }
    for (const [ref, { evaluations, type }] of byAnchor) this.b.annotate(ref, { rewards: rewardsFrom(evaluations, type), evaluations });
    return unattached;
  }

  /**
   * The span tree, in start order. A span whose parent link would close a
   * cycle is a root. Spans whose parent is not in the export (a collector
   * that kept only some instrumentations' spans) stay part of the run: the
   * siblings of one missing parent hang off a stand-in for it, placed inside
   * the innermost span whose time holds them all (else under the one root
   * when it started before them, else at the top), and a note says so.
   */
  private tree(): SpanNode[] {
    const nodes = new Map<string, SpanNode>(this.spans.map((span) => [span.spanId, { span, c: classifySpan(span), children: [] as SpanNode[] }]));
    const roots: SpanNode[] = [];
    const orphans = new Map<string, SpanNode[]>();
    for (const node of [...nodes.values()].sort((a, b) => compareStart(a.span, b.span))) {
      const missing = node.span.parentSpanId;
      const parent = missing !== undefined ? nodes.get(missing) : undefined;
      if (parent && !this.isAncestor(node.span.spanId, parent.span.spanId)) this.attach(node, parent);
      else if (missing !== undefined && parent === undefined) pushTo(orphans, missing, node);
      else roots.push(node);
    }
    const placed = [...orphans].map(([missing, group]) => {
      const start = group.reduce((m, n) => (BigInt(n.span.startTimeUnixNano) < m ? BigInt(n.span.startTimeUnixNano) : m), BigInt(group[0]!.span.startTimeUnixNano));
      const end = group.reduce((m, n) => (BigInt(n.span.endTimeUnixNano) > m ? BigInt(n.span.endTimeUnixNano) : m), BigInt(group[0]!.span.endTimeUnixNano));
      const first = group[0]!.span;
      const standIn: SpanNode = {
        span: { traceId: first.traceId, spanId: missing, name: "(parent span not in the export)", kind: 0, startTimeUnixNano: String(start), endTimeUnixNano: String(end), attributes: {}, events: [], links: [], status: { code: 0 }, resource: first.resource, scope: {} },
        c: { family: group[0]!.c.family, role: "other" },
        children: [],
      };
      for (const n of group) this.attach(n, standIn);
      return { standIn, start, end, group };
    });
    const realRoots = [...roots];
    const where: string[] = [];
    // a sweep in start order: the spans open when a group starts (the stand-ins come in their groups' start order)
    const times = [...nodes.values()].map((n) => ({ n, start: BigInt(n.span.startTimeUnixNano), end: BigInt(n.span.endTimeUnixNano) }));
    const byStart = [...times].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    const byEnd = [...times].sort((a, b) => (a.end < b.end ? -1 : a.end > b.end ? 1 : 0));
    const open = new Set<(typeof times)[number]>();
    let opened = 0;
    let closed = 0;
    for (const { standIn, start, end, group } of placed) {
      while (opened < byStart.length && byStart[opened]!.start <= start) open.add(byStart[opened++]!);
      while (closed < byEnd.length && byEnd[closed]!.end < start) open.delete(byEnd[closed++]!);
      const holders = [...open].filter((x) => x.end >= end && !this.isAncestor(standIn.span.spanId, x.n.span.spanId)).map((x) => x.n);
      const host = holders.sort((a, b) => this.depth(a) - this.depth(b) || compareStart(a.span, b.span)).at(-1) ?? (realRoots.length === 1 && BigInt(realRoots[0]!.span.startTimeUnixNano) <= start ? realRoots[0] : undefined);
      if (host !== undefined) this.attach(standIn, host);
      else roots.push(standIn);
      where.push(`${[...new Set(group.map((n) => n.span.name))].join(", ")} ${host !== undefined ? `inside "${host.span.name}"` : "at the top of the run"}`);
    }
    if (placed.length > 0) {
      const count = placed.reduce((n, p) => n + p.group.length, 0);
      this.notes.push(`${count} span(s) whose parent is not in the export (${placed.map((p) => p.standIn.span.spanId).join(", ")}) were kept where their time places them: ${where.join("; ")}`);
    }
    for (const node of nodes.values()) node.children.sort((a, b) => compareStart(a.span, b.span));
    return roots.sort((a, b) => compareStart(a.span, b.span));
  }

  private attach(node: SpanNode, parent: SpanNode): void {
    parent.children.push(node);
    node.parent = parent;
    this.parentOf.set(node.span.spanId, parent.span.spanId);
  }

  private depth(node: SpanNode): number {
    let d = 0;
    for (let at = node.parent; at !== undefined; at = at.parent) d++;
    return d;
  }

  private isAncestor(id: string, of: string): boolean {
    for (let at: string | undefined = of; at !== undefined; at = this.parentOf.get(at)) if (at === id) return true;
    return false;
  }
}

/** The steps below `children` grouped by the agent they name, one turn per run of consecutive steps of one agent; none when no step names one. */
function namedTurns(children: readonly SpanNode[], holder: SpanNode): { name: string; node: SpanNode; implicit: true }[] {
  const units = (nodes: readonly SpanNode[]): SpanNode[] => nodes.flatMap((k) => (k.c.role === "other" || k.c.role === "run" ? units(k.children) : [k]));
  const list = units(children).sort((a, b) => compareStart(a.span, b.span));
  // a step's own agent name, else the nearest plumbing span above it that names one (LlamaIndex's run_agent_step)
  const named = (n: SpanNode): string | undefined => {
    for (let at: SpanNode | undefined = n; at !== undefined && at !== holder; at = at.parent) if (at.c.agent !== undefined) return at.c.agent;
    return undefined;
  };
  const hintOf = (n: SpanNode) => stepsOf([n]).map(named).find((a) => a !== undefined);
  const firstHint = list.map(hintOf).find((h) => h !== undefined);
  if (firstHint === undefined) return [];
  const groups: { name: string; units: SpanNode[] }[] = [];
  for (const unit of list) {
    const name = hintOf(unit) ?? groups.at(-1)?.name ?? firstHint;
    if (groups.at(-1)?.name !== name) groups.push({ name, units: [] });
    groups.at(-1)!.units.push(unit);
  }
  return groups.map((g) => ({ name: g.name, node: { span: holder.span, c: { family: holder.c.family, role: "agent", name: g.name }, children: g.units }, implicit: true }));
}

/** Attributes that hold what a model call read (where the tool-call ids of results it consumed appear). */
const INPUT_KEY = /^(gen_ai\.input\.|gen_ai\.prompt|llm\.input_messages\.|input\.value$|ai\.prompt|raw_input$|request_data$|gcp\.vertex\.agent\.llm_request$)/;
