import type { EdgeType } from "../../trace/types";
import type { EventRef, Parent } from "../emit";
import { optional, type OtlpSpan } from "../otlp-span";
import type { SpanNode } from "./classify";
import { callText, reactAnswer } from "./content";
import type { GuardedTraceBuilder } from "./graph";
import { transferTarget, type ToolCallPart } from "./model";
import { statusOf } from "./status";
import { pushTo } from "../../util/group";

/**
 * One agent's turn: its steps (model calls, tools, the agents it runs) as
 * events in its lane. The rules (docs/otlp.md, "What a run becomes"):
 * - a model call is never a `message`. Its output becomes what it did: a
 *   `tool_call` per tool it asked for, a `spawn` per agent it delegated to
 *   (transfer_to_<agent>, a handoff, an agent called as a tool), the
 *   agent's `return` or the run's `aggregate` when it is the turn's
 *   answer, a `message` only when it is addressed to another agent, and an
 *   `orchestrator_decision` (continue) for text nobody receives;
 * - a step consumes what it read: results whose tool-call id its input
 *   names (`tool_dependency`, `return`), else every result still waiting in
 *   the lane (the agent loop's next call reads them all), and the lane's
 *   previous step (`causal`). Timing alone never draws an edge.
 */

export type Closing = { kind: "return"; to: string } | { kind: "aggregate" } | { kind: "message"; to: string } | { kind: "none" };

interface Waiting {
  ref: EventRef;
  callId?: string;
  via: EdgeType;
}

export interface TurnHost {
  readonly b: GuardedTraceBuilder;
  at(nanos: string): number;
  record(span: OtlpSpan, input: EventRef, output: EventRef, role: string): void;
  /** tool-call ids a model call's input names */
  reads(span: OtlpSpan, ids: readonly string[]): string[];
  /** handoffs waiting for their target's turn */
  readonly handoffs: Map<string, { ref: EventRef; from: string }>;
  /** delegations seen, parent -> child */
  delegated(from: string, to: string): void;
  /** the run's own output (a workflow's or crew's result), when its root span has one */
  readonly answer?: string;
}

export class TurnRunner {
  /** the last step of each lane: the next one continues from it */
  private readonly last = new Map<string, EventRef>();
  private readonly waiting = new Map<string, Waiting[]>();

  constructor(private readonly h: TurnHost) {}

  /** Runs `node`'s steps as agent `name`; returns the turn's closing event (when it made one) and what follows from it. */
  run(node: SpanNode, name: string, entry: Parent[], closing: Closing, handedOverBy?: string): { final?: EventRef; tail: Parent[] } {
    const steps = stepsOf(node.children);
    const calls = matchCalls(steps);
    let pendingEntry = entry;
    let inherited = handedOverBy;
    const parentsFor = (span: OtlpSpan | undefined, consumeAll: boolean): Parent[] => {
      const out: Parent[] = [...pendingEntry];
      pendingEntry = [];
      const prev = this.last.get(name);
      if (prev !== undefined) out.push([prev, "causal"]);
      out.push(...this.consume(name, span, consumeAll));
      // a handoff passes the conversation on: the first model call of the agent handed over to reads the results its input names
      if (inherited !== undefined && span !== undefined) out.push(...this.consume(inherited, span, false));
      if (span !== undefined) inherited = undefined;
      return out;
    };
    let final: EventRef | undefined;
    steps.forEach((step, i) => {
      const isLast = i === steps.length - 1;
      const { c, span } = step;
      if (c.role === "llm") {
        const refs = this.modelCall(step, name, parentsFor(span, true), isLast && (c.calls ?? []).length === 0 ? closing : { kind: "none" }, calls);
        if (isLast && (c.calls ?? []).length === 0 && closing.kind !== "none") final = refs.at(-1);
        this.last.set(name, refs.at(-1)!);
        return;
      }
      if (c.role === "tool") return this.tool(step, name, calls, () => parentsFor(undefined, false));
      if (c.role === "agent" || c.role === "create_agent") return this.nested(step, name, calls, () => parentsFor(undefined, true));
    });
    if (final === undefined && closing.kind !== "none" && closing.kind !== "message") {
      final = this.close(node, name, closing, parentsFor(undefined, true));
      this.last.set(name, final);
    }
    const tail = this.last.get(name);
    if (final === undefined && pendingEntry.length > 0) return { tail: pendingEntry };
    return { ...(final !== undefined ? { final } : {}), tail: tail !== undefined ? [[tail, "causal"]] : [] };
  }

  /** The results waiting in `agent`'s lane that `span` (a model call) reads, or all of them. */
  private consume(agent: string, span: OtlpSpan | undefined, all: boolean): Parent[] {
    const waiting = this.waiting.get(agent) ?? [];
    // a step that reads nothing by id and takes nothing else (a tool) leaves the lane's results waiting
    if (waiting.length === 0 || (span === undefined && !all)) return [];
    const ids = waiting.flatMap((w) => (w.callId !== undefined ? [w.callId] : []));
    const read = span !== undefined ? new Set(this.h.reads(span, ids)) : new Set<string>();
    const taken = read.size > 0 ? waiting.filter((w) => w.callId !== undefined && read.has(w.callId)) : all ? waiting : [];
    const gone = new Set(taken);
    this.waiting.set(agent, waiting.filter((w) => !gone.has(w)));
    return taken.map((w) => [w.ref, w.via]);
  }

  private wait(agent: string, w: Waiting): void {
    pushTo(this.waiting, agent, w);
  }

  private modelCall(step: SpanNode, agent: string, parents: Parent[], closing: Closing, calls: CallMatch): EventRef[] {
    const { c, span } = step;
    const usage = c.usage ?? {};
    const measured = {
      span_id: span.spanId,
      operation: "model_call",
      ...(usage.total !== undefined ? { tokens: usage.total } : {}),
      ...(usage.input !== undefined ? { input_tokens: usage.input } : {}),
      ...(usage.output !== undefined ? { output_tokens: usage.output } : {}),
      ...optional("model", c.model),
      ...statusOf(span),
    };
    const t = this.h.at(span.startTimeUnixNano);
    const tEnd = this.h.at(span.endTimeUnixNano);
    const decided = c.calls ?? [];
    if (decided.length === 0) {
      const type = closing.kind === "return" ? "return" : closing.kind === "aggregate" ? "aggregate" : closing.kind === "message" ? "message" : "orchestrator_decision";
      const address = closing.kind === "return" ? { from: agent, to: closing.to } : closing.kind === "message" ? { from: agent, to: closing.to } : closing.kind === "none" ? { decision: "continue" as const } : {};
      const via = (p: Parent): Parent => (type === "aggregate" && p[1] === "return" ? [p[0], "aggregate"] : p);
      const ref = this.h.b.add({ t, t_end: tEnd, type, agent, ...address, ...optional("content", type === "aggregate" || type === "return" ? this.answerText(c.output, type) : c.output), ...measured }, ...parents.map(via));
      this.h.record(span, ref, ref, "llm");
      return [ref];
    }
    const refs = decided.map((call, i) => {
      const tool = calls.toolFor(call);
      const target = transferTarget(call.name, call.args) ?? tool?.c.handoffTo ?? (tool?.c.role === "agent" ? tool.c.name : tool ? agentInside(tool)?.c.name : undefined);
      const argsOf = (d: ToolCallPart) => (d.args === "{}" || d.args === "" ? ((calls.toolFor(d)?.c.handoffTo === undefined ? calls.toolFor(d)?.c.input : undefined) ?? d.args) : d.args);
      const shown = decided.map((d) => callText(d.name, d.args));
      const own = c.output?.split("\n").filter((line) => !shown.includes(line)).join("\n");
      const text = [i === 0 ? own : undefined, callText(call.name, argsOf(call))].filter((x): x is string => x !== undefined && x !== "").join("\n");
      const fields = { t, ...(i === 0 ? { t_end: tEnd, ...measured } : { span_id: span.spanId, operation: "model_call" }), agent, content: text, ...optional("tool_call_id", call.id) };
      const ref = target !== undefined ? this.h.b.add({ ...fields, type: "spawn", to: target }, ...(i === 0 ? parents : [])) : this.h.b.add({ ...fields, type: "tool_call", tool: call.name }, ...(i === 0 ? parents : []));
      if (i > 0) for (const p of parents) this.h.b.tryLink(p[0], ref, p[1]);
      calls.made.set(call, ref);
      if (target !== undefined && tool === undefined) {
        this.h.handoffs.set(target, { ref, from: agent });
        this.h.delegated(agent, target);
      }
      return ref;
    });
    this.h.record(span, refs[0]!, refs.at(-1)!, "llm");
    return refs;
  }

  private tool(step: SpanNode, agent: string, calls: CallMatch, parents: () => Parent[]): void {
    const { c, span } = step;
    const call = calls.get(step);
    const made = call !== undefined ? calls.made.get(call) : undefined;
    const callId = call?.id ?? c.toolCallId;
    const inner = agentInside(step);
    if (inner !== undefined || c.handoffTo !== undefined) {
      const target = inner?.c.name ?? c.handoffTo!;
      const spawn = made ?? this.h.b.add({ t: this.h.at(span.startTimeUnixNano), type: "spawn", agent, to: target, span_id: span.spanId, ...optional("content", c.input), ...optional("tool_call_id", callId) }, ...parents());
      this.h.delegated(agent, target);
      if (inner === undefined) {
        this.h.handoffs.set(target, { ref: spawn, from: agent });
        this.h.record(span, spawn, spawn, "tool");
        return;
      }
      const { final } = this.run(inner, target, [[spawn, "spawn"]], { kind: "return", to: agent });
      this.h.record(span, spawn, final!, "tool");
      this.h.record(inner.span, spawn, final!, "agent");
      if (callId !== undefined) this.h.b.annotate(final!, { tool_call_id: callId });
      this.wait(agent, { ref: final!, ...(callId !== undefined ? { callId } : {}), via: "return" });
      return;
    }
    const t = this.h.at(span.startTimeUnixNano);
    const tEnd = this.h.at(span.endTimeUnixNano);
    const callRef = made ?? this.h.b.add({ t, t_end: tEnd, type: "tool_call", agent, tool: c.name ?? "tool", span_id: span.spanId, ...optional("tool_call_id", callId), ...optional("content", c.input) }, ...parents());
    const result = this.h.b.add(
      { t: made !== undefined ? t : tEnd, ...(made !== undefined ? { t_end: tEnd } : {}), type: "tool_result", agent, tool: c.name ?? call?.name ?? "tool", ...optional("tool_call_id", callId), ...optional("content", c.output), ...statusOf(span, true), span_id: span.spanId },
      [callRef, "return"],
    );
    this.h.record(span, callRef, result, "tool");
    this.wait(agent, { ref: result, ...(callId !== undefined ? { callId } : {}), via: "tool_dependency" });
  }

  /**
   * An agent run inside this turn, not through a tool span: spawned here,
   * returning here. When a model call asked for it by name (smolagents'
   * managed agents are called like tools but have no tool span), that
   * call's spawn is its start and the call id marks its return.
   */
  private nested(step: SpanNode, agent: string, calls: CallMatch, parents: () => Parent[]): void {
    const { c, span } = step;
    const child = c.name ?? span.name;
    const handoff = this.h.handoffs.get(child);
    if (handoff !== undefined) this.h.handoffs.delete(child);
    const call = calls.get(step);
    const spawn =
      handoff?.ref ??
      (call !== undefined ? calls.made.get(call) : undefined) ??
      this.h.b.add({ t: this.h.at(span.startTimeUnixNano), type: "spawn", agent, to: child, span_id: span.spanId, ...optional("content", c.input ?? firstRequest(step)), ...(c.role === "create_agent" ? { t_end: this.h.at(span.endTimeUnixNano) } : {}) }, ...parents());
    this.h.delegated(agent, child);
    if (c.role === "create_agent") {
      this.h.record(span, spawn, spawn, "create_agent");
      return;
    }
    const { final } = this.run(step, child, [[spawn, "spawn"]], { kind: "return", to: agent });
    this.h.record(span, spawn, final!, "agent");
    if (call?.id !== undefined) this.h.b.annotate(final!, { tool_call_id: call.id });
    this.wait(agent, { ref: final!, ...(call?.id !== undefined ? { callId: call.id } : {}), via: "return" });
  }

  /**
   * An answering model call's text: a ReAct completion ("Thought: …
   * Final Answer: …") without its scaffolding; for the run's answer, the
   * run's own output when it has one (a LlamaIndex workflow's, a crew's result).
   */
  private answerText(output: string | undefined, type: "aggregate" | "return"): string | undefined {
    const answer = reactAnswer(output);
    if (answer === undefined) return output;
    return type === "aggregate" && this.h.answer !== undefined && this.h.answer.trim() !== "" ? this.h.answer : answer;
  }

  /**
   * The turn's closing event when no model call gave it: the agent's return,
   * the run's aggregate. Its text is the span's output, else (the agent
   * handed the work to a sub-agent, ADK's transfer_to_agent) the answer
   * the last sub-agent returned.
   */
  private close(node: SpanNode, agent: string, closing: Closing, parents: Parent[]): EventRef {
    const { span, c } = node;
    const at = this.h.at(span.endTimeUnixNano);
    const returned = parents.filter((p) => p[1] === "return").map((p) => this.h.b.contentOf(p[0])).filter((x) => x !== undefined).at(-1);
    const base = { t: at, agent, span_id: span.spanId, ...optional("content", c.output ?? returned), ...statusOf(span), ...ownTokens(node) };
    if (closing.kind === "aggregate") return this.h.b.add({ ...base, type: "aggregate" }, ...parents.map((p): Parent => (p[1] === "return" ? [p[0], "aggregate"] : p)));
    if (closing.kind === "message") return this.h.b.add({ ...base, type: "message", from: agent, to: closing.to }, ...parents);
    return this.h.b.add({ ...base, type: "return", from: agent, to: closing.kind === "return" ? closing.to : agent }, ...parents);
  }

}

/** What an agent was asked, when its span does not say: the first user message of its first model call. */
function firstRequest(node: SpanNode): string | undefined {
  return stepsOf(node.children).find((s) => s.c.role === "llm")?.c.request;
}

/** Usage an agent span reports itself, counted only when no model call below it reports its own. */
function ownTokens(node: SpanNode): { tokens?: number } {
  const hasLlm = (n: SpanNode): boolean => n.children.some((k) => k.c.role === "llm" || hasLlm(k));
  const total = node.c.usage?.total;
  return total !== undefined && !hasLlm(node) ? { tokens: total } : {};
}

/** An agent's steps: model calls, tools and agents among its descendants, looking through plumbing and through model calls (Mastra runs tools inside its model span). */
export function stepsOf(children: readonly SpanNode[]): SpanNode[] {
  const out = children.flatMap((k): SpanNode[] => (k.c.role === "other" || k.c.role === "run" ? stepsOf(k.children) : k.c.role === "llm" ? [k, ...stepsOf(k.children)] : [k]));
  return out.sort((a, b) => {
    const d = BigInt(a.span.startTimeUnixNano) - BigInt(b.span.startTimeUnixNano);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  });
}

/** The agent a tool runs (an agent called as a tool), looking through plumbing. */
export function agentInside(node: SpanNode): SpanNode | undefined {
  for (const k of node.children) {
    if (k.c.role === "agent") return k;
    if (k.c.role === "other" || k.c.role === "run") {
      const found = agentInside(k);
      if (found) return found;
    }
  }
  return undefined;
}

/** Which model-call tool call each tool span executed, and the events made for the calls. */
export interface CallMatch {
  get(tool: SpanNode): ToolCallPart | undefined;
  toolFor(call: ToolCallPart): SpanNode | undefined;
  made: Map<ToolCallPart, EventRef>;
}

/**
 * Pairs tool spans (and agents a model call asked for by name) with the
 * calls the turn's model calls asked for: by tool-call id; without one, by
 * name (or handoff target) with the latest earlier model call that asked
 * for it and is not yet paired.
 */
export function matchCalls(steps: readonly SpanNode[]): CallMatch {
  const byTool = new Map<SpanNode, ToolCallPart>();
  const byCall = new Map<ToolCallPart, SpanNode>();
  const llms: SpanNode[] = [];
  for (const step of steps) {
    if (step.c.role === "llm") {
      llms.push(step);
      continue;
    }
    if (step.c.role === "agent") {
      // an agent called as a tool without a tool span of its own: the latest unpaired call of its name
      const call = [...llms].reverse().flatMap((l) => l.c.calls ?? []).find((c) => !byCall.has(c) && c.name === step.c.name);
      if (call !== undefined) {
        byTool.set(step, call);
        byCall.set(call, step);
      }
      continue;
    }
    if (step.c.role !== "tool") continue;
    const { toolCallId, name, handoffTo } = step.c;
    const candidates = [...llms].reverse().flatMap((l) => l.c.calls ?? []).filter((c) => !byCall.has(c));
    const call =
      (toolCallId !== undefined ? candidates.find((c) => c.id === toolCallId) : undefined) ??
      (toolCallId === undefined || !candidates.some((c) => c.id !== undefined) ? candidates.find((c) => c.name === name || (handoffTo !== undefined && transferTarget(c.name, c.args) === handoffTo)) : undefined);
    if (call !== undefined) {
      // paired by name, the tool span knows the call's id the model's output did not carry (any-agent writes tool calls without ids)
      if (call.id === undefined && toolCallId !== undefined) call.id = toolCallId;
      byTool.set(step, call);
      byCall.set(call, step);
    }
  }
  return { get: (t) => byTool.get(t), toolFor: (c) => byCall.get(c), made: new Map() };
}
