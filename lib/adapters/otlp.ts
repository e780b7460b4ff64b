import type { EdgeType, EventType, Topology } from "../trace/types";
import type { EventRef, Parent } from "./emit";
import { evaluationsBySpan, rewardsFrom, type Evaluation } from "./otlp-evaluations";
import { GuardedTraceBuilder } from "./otlp-graph";
import * as sem from "./otlp-semantics";
import { compareStart, optional, secondsSince, textAttr, type OtlpSpan } from "./otlp-span";
import { AdapterInputError, type AdaptedTrace } from "./types";

/**
 * OpenTelemetry spans (GenAI semantic conventions, OpenInference) as one
 * orchestration trace. Pure: spans in, a trace in Baton's wire form out.
 * The span tree gives the structure (docs/otlp.md has the table):
 * - an agent span under another agent -> `spawn` of the parent at its start
 *   (`spawn` edge to the child's first event) and `return` of the child at
 *   its end (`return` edge into the parent's next step; `aggregate` edge into
 *   the root's closing aggregate);
 * - an LLM span -> `message` of the enclosing agent (t..t_end, tokens);
 * - a tool span -> `tool_call` (t..t_end) and `tool_result` at its end
 *   (`return` edge; status error on span status ERROR or `error.type`);
 * - within an agent, a step depends on the outputs that ended before it
 *   started (`tool_dependency` from a tool result, `return` from a child's
 *   return, `causal` otherwise);
 * - span links -> `causal` edges; a tool call id named in an LLM span's
 *   input -> `tool_dependency`, in its output -> `causal` into the call;
 * - `gen_ai.evaluation.result` span events -> event rewards.
 * Times are seconds since the trace's first span started.
 */

interface SpanNode {
  span: OtlpSpan;
  role: sem.SpanRole;
  children: SpanNode[];
}

/** What a span became: the event links point into, and the one that follows from it. */
interface Mapped {
  input: EventRef;
  output: EventRef;
  role: sem.SpanRole;
}

/** A step's result, waiting to be used by the agent's next step. */
interface Output {
  ref: EventRef;
  end: bigint;
  via: EdgeType;
}

export function adaptOtlpSpans(spans: readonly OtlpSpan[], opts: { file?: string } = {}): AdaptedTrace {
  return new OtlpTraceMapper(spans).map(opts.file);
}

class OtlpTraceMapper {
  private readonly b = new GuardedTraceBuilder();
  private readonly mapped = new Map<string, Mapped>();
  private readonly parentOf = new Map<string, string>();
  private readonly origin: bigint;
  private readonly roots: SpanNode[];
  private maxDepth = 0;

  constructor(private readonly spans: readonly OtlpSpan[]) {
    if (spans.length === 0) throw new AdapterInputError("otlp", "otlp", ["no spans"]);
    this.origin = spans.reduce((min, s) => (BigInt(s.startTimeUnixNano) < min ? BigInt(s.startTimeUnixNano) : min), BigInt(spans[0]!.startTimeUnixNano));
    this.roots = this.tree();
  }

  map(file?: string): AdaptedTrace {
    const single = this.roots.length === 1 && ["agent", "other"].includes(this.roots[0]!.role) ? this.roots[0]! : null;
    const service = textAttr((single ?? this.roots[0]!).span.resource, "service.name");
    const rootName = single === null ? (service ?? "root") : single.role === "agent" ? sem.agentNameOf(single.span) : (service ?? single.span.name);
    const steps = single === null ? this.stepsOf(this.roots) : this.stepsOf(single.children);
    const closing = this.runSteps(steps, rootName, [], 1);
    const rootEnd = this.spans.reduce((max, s) => (BigInt(s.endTimeUnixNano) > max ? BigInt(s.endTimeUnixNano) : max), this.origin);
    // the root's closing aggregate: when it spawned agents, or when a root agent has no other event
    if (steps.some((s) => s.role === "agent" || s.role === "create_agent") || (steps.length === 0 && single?.role === "agent")) {
      const span = single?.span;
      const own = single !== null ? this.ownTokens(single) : {};
      const aggregate = this.b.add(
        {
          t: this.at(span?.endTimeUnixNano ?? String(rootEnd)),
          type: "aggregate",
          agent: rootName,
          ...(span ? { ...this.describe(span), ...sem.statusOf(span), ...own, ...optional("content", sem.outputOf(span)) } : {}),
        },
        ...closing.map(([ref, via]): Parent => [ref, via === "return" ? "aggregate" : via]),
      );
      if (span) this.mapped.set(span.spanId, { input: aggregate, output: aggregate, role: "agent" });
    }
    if (this.mapped.size === 0) {
      throw new AdapterInputError("otlp", file ?? `trace ${this.spans[0]!.traceId}`, [`none of its ${this.spans.length} span(s) is a GenAI or OpenInference agent, LLM or tool span`]);
    }
    const linksSkipped = this.linkSpans();
    this.linkToolCalls();
    const unattached = this.attachEvaluations();
    return this.b.build(
      {
        trace_id: this.spans[0]!.traceId,
        task_id: this.taskId(single),
        system: service ?? "unknown_service",
        topology: this.topology(),
        rewards: {},
        metadata: {
          source: sem.provenanceOf(this.spans, service, file),
          started_at: new Date(Number(this.origin / 1_000_000n)).toISOString(),
          root_span: (single ?? this.roots[0]!).span.name,
          unmapped_spans: this.spans.length - this.mapped.size,
          ...(linksSkipped > 0 ? { links_skipped: linksSkipped } : {}),
          ...(unattached > 0 ? { evaluations_unattached: unattached } : {}),
        },
      },
      { clock: "seconds" },
    );
  }

  /**
   * The work spans an agent runs: its descendants that are agents, LLM or
   * tool calls, looking through other spans (and through LLM calls: what an
   * LLM span holds is the agent's too). A tool's and an agent's own
   * descendants are theirs.
   */
  private stepsOf(children: readonly SpanNode[]): SpanNode[] {
    const out = children.flatMap((c) => (c.role === "other" ? this.stepsOf(c.children) : c.role === "llm" ? [c, ...this.stepsOf(c.children)] : [c]));
    return out.sort((a, b) => compareStart(a.span, b.span));
  }

  /** Runs an agent's steps in start order; returns what its closing event follows from. */
  private runSteps(steps: readonly SpanNode[], agent: string, entry: Parent[], depth: number): Parent[] {
    let frontier = entry;
    let pending: Output[] = [];
    for (const step of steps) {
      const start = BigInt(step.span.startTimeUnixNano);
      const done = pending.filter((p) => p.end <= start);
      if (done.length > 0) {
        frontier = done.map((p) => [p.ref, p.via]);
        pending = pending.filter((p) => p.end > start);
      }
      pending.push(this.step(step, agent, frontier, depth));
    }
    return pending.length > 0 ? pending.map((p) => [p.ref, p.via]) : frontier;
  }

  private step(node: SpanNode, agent: string, frontier: Parent[], depth: number): Output {
    const span = node.span;
    const end = BigInt(span.endTimeUnixNano);
    const base = { t: this.at(span.startTimeUnixNano), agent, ...this.describe(span) };
    if (node.role === "llm") {
      const usage = sem.usageOf(span);
      const message = this.b.add(
        {
          ...base,
          t_end: this.at(span.endTimeUnixNano),
          type: "message",
          from: agent,
          ...optional("content", sem.outputOf(span)),
          ...(usage.total !== undefined ? { tokens: usage.total } : {}),
          ...(usage.input !== undefined ? { input_tokens: usage.input } : {}),
          ...(usage.output !== undefined ? { output_tokens: usage.output } : {}),
          ...optional("model", sem.modelOf(span)),
          ...sem.statusOf(span),
        },
        ...frontier,
      );
      return this.record(node, message, message, end, "causal");
    }
    if (node.role === "tool") {
      const tool = sem.toolNameOf(span);
      const callId = optional("tool_call_id", sem.toolCallIdOf(span));
      const call = this.b.add({ ...base, t_end: this.at(span.endTimeUnixNano), type: "tool_call", tool, ...callId, ...optional("content", sem.inputOf(span)) }, ...frontier);
      const nested = this.stepsOf(node.children);
      const inner = nested.length > 0 ? this.runSteps(nested, agent, [[call, "causal"]], depth) : [];
      const result = this.b.add(
        { t: this.at(span.endTimeUnixNano), type: "tool_result", agent, tool, ...callId, ...optional("content", sem.outputOf(span)), ...sem.statusOf(span, true), ...this.ownTokens(node), span_id: span.spanId },
        [call, "return"],
        ...inner,
      );
      return this.record(node, call, result, end, "tool_dependency");
    }
    const child = sem.agentNameOf(span);
    const spawn = this.b.add({ ...base, type: "spawn", to: child, ...optional("content", sem.inputOf(span)), ...(node.role === "create_agent" ? { t_end: this.at(span.endTimeUnixNano) } : {}) }, ...frontier);
    if (node.role === "create_agent") return this.record(node, spawn, spawn, end, "causal");
    this.maxDepth = Math.max(this.maxDepth, depth);
    const closing = this.runSteps(this.stepsOf(node.children), child, [[spawn, "spawn"]], depth + 1);
    const ret = this.b.add(
      { t: this.at(span.endTimeUnixNano), type: "return", agent: child, from: child, to: agent, ...optional("content", sem.outputOf(span)), ...sem.statusOf(span), ...this.ownTokens(node), span_id: span.spanId, ...optional("operation", sem.operationOf(span)) },
      ...closing,
    );
    return this.record(node, spawn, ret, end, "return");
  }

  private record(node: SpanNode, input: EventRef, output: EventRef, end: bigint, via: EdgeType): Output {
    this.mapped.set(node.span.spanId, { input, output, role: node.role });
    return { ref: output, end, via };
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

  /**
   * Tool call ids: the LLM call that names the id in its output asked for
   * the call (`causal` into the tool_call); one that names it in its input
   * read the result (`tool_dependency` from the tool_result). Edges the step
   * order already drew are not repeated.
   */
  private linkToolCalls(): void {
    const llms = this.spans.filter((s) => this.mapped.get(s.spanId)?.role === "llm");
    for (const span of this.spans) {
      const tool = this.mapped.get(span.spanId);
      const callId = sem.toolCallIdOf(span);
      if (tool?.role !== "tool" || callId === undefined) continue;
      for (const llm of llms) {
        const message = this.mapped.get(llm.spanId)!.input;
        if (BigInt(llm.endTimeUnixNano) <= BigInt(span.startTimeUnixNano) && sem.mentionsToolCall(llm, "output", callId)) this.b.tryLink(message, tool.input, "causal");
        if (BigInt(llm.startTimeUnixNano) >= BigInt(span.endTimeUnixNano) && sem.mentionsToolCall(llm, "input", callId)) this.b.tryLink(tool.output, message, "tool_dependency");
      }
    }
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
      // the anchor's type picks the family of unnamed evaluations (message, return and aggregate all give step_quality)
      const entry = byAnchor.get(ref) ?? { evaluations: [], type: tool ? "tool_call" : mapped.role === "create_agent" ? "spawn" : "message" };
      entry.evaluations.push(...evaluations);
      byAnchor.set(ref, entry);
    }
    for (const [ref, { evaluations, type }] of byAnchor) this.b.annotate(ref, { rewards: rewardsFrom(evaluations, type), evaluations });
    return unattached;
  }

  /** The span tree, in start order; a span whose parent is missing, or whose parent link would close a cycle, is a root. */
  private tree(): SpanNode[] {
    const nodes = new Map(this.spans.map((span) => [span.spanId, { span, role: sem.roleOf(span), children: [] as SpanNode[] }]));
    const roots: SpanNode[] = [];
    for (const node of [...nodes.values()].sort((a, b) => compareStart(a.span, b.span))) {
      const parent = node.span.parentSpanId !== undefined ? nodes.get(node.span.parentSpanId) : undefined;
      if (parent && !this.isAncestor(node.span.spanId, parent.span.spanId)) {
        parent.children.push(node);
        this.parentOf.set(node.span.spanId, parent.span.spanId);
      } else roots.push(node);
    }
    return roots;
  }

  /** Whether `id` is `of` or one of its ancestors (in the links made so far). */
  private isAncestor(id: string, of: string): boolean {
    for (let at: string | undefined = of; at !== undefined; at = this.parentOf.get(at)) if (at === id) return true;
    return false;
  }

  private taskId(single: SpanNode | null): string {
    const conversation = [...this.spans].sort(compareStart).map(sem.conversationOf).find((c) => c !== undefined);
    return conversation ?? ((single ?? this.roots[0]!).span.name || this.spans[0]!.traceId);
  }

  private topology(): Topology {
    return this.maxDepth >= 2 ? "hierarchical" : this.maxDepth === 1 ? "centralized" : "harness";
  }

  private describe(span: OtlpSpan): Record<string, string> {
    return { span_id: span.spanId, ...optional("operation", sem.operationOf(span)) };
  }

  /** Usage an agent or tool span reports itself, counted only when it has no LLM span below it (whose usage counts instead). */
  private ownTokens(node: SpanNode): { tokens?: number } {
    const hasLlm = (n: SpanNode): boolean => n.children.some((c) => c.role === "llm" || hasLlm(c));
    const total = sem.usageOf(node.span).total;
    return total !== undefined && !hasLlm(node) ? { tokens: total } : {};
  }

  private at(nanos: string): number {
    return secondsSince(this.origin, nanos);
  }
}
