import { z } from "zod";
import { callMessageSchema, type ModelCall } from "../trace/calls";
import { AdaptedTraceBuilder, shortHash, slug, type EventRef, type Parent } from "./emit";
import { provenanceOf, stem } from "./provenance";
import { AdapterInputError, type AdaptedTrace } from "./types";
import { zodDetails } from "./zod-details";

/**
 * AgentOps span-tree export (OpenTelemetry-like spans; here a CrewAI run).
 * The tree, through parent_span_id, gives the structure:
 * - the workflow root -> orchestrator_decision (spawn) at its start and an
 *   aggregate of the crew's result at its end;
 * - a task span (workflow.step) -> spawn of the task's agent;
 * - an LLM span -> the agent's return when it is the last LLM call of its
 *   task (the task's output), else a message to the orchestrator; gen_ai
 *   attributes give its tokens and model;
 * - a tool span -> tool_call + tool_result (`return` edge).
 * In a sequential crew each task takes the previous task's output as
 * context, so a return links to the next task's spawn.
 * Model calls (SPEC.md section 6): an LLM span whose `gen_ai.prompt` holds
 * the messages sent and whose `gen_ai.completion` holds one reply becomes a
 * call (input and output as recorded, model, token counts, the span's time),
 * producing that span's event. The export records no tool definitions or
 * sampling parameters; a span whose prompt or reply is missing or cut short
 * (`freeplan_truncated`) becomes no call.
 */

const spanSchema = z.looseObject({
  span_id: z.string().min(1),
  parent_span_id: z.string().nullable().optional(),
  span_name: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  status_code: z.string().optional(),
  span_attributes: z.record(z.string(), z.unknown()).optional(),
});

export const agentOpsSchema = z.looseObject({
  trace: z.looseObject({ trace_id: z.string() }),
  spans: z.array(spanSchema).min(1, "the export holds no spans"),
});

type Span = z.infer<typeof spanSchema>;

interface Node {
  span: Span;
  kind: string;
  children: Node[];
  start: number;
  end: number;
}

export function adaptAgentOps(raw: unknown, path: string): AdaptedTrace {
  const parsed = agentOpsSchema.safeParse(raw);
  if (!parsed.success) throw new AdapterInputError("agentops", path, zodDetails(parsed.error));
  const { trace, spans } = parsed.data;
  const roots = tree(spans, path);
  const origin = Math.min(...spans.map((s) => seconds(s.start_time)));
  const b = new AdaptedTraceBuilder();
  const at = (time: number) => time - origin;
  const orchestrator = text(attr(roots[0]!.span, "agentops.entity.name")) ?? "workflow";
  let skipped = 0;
  const calls: { node: Node; agent: string; ref: EventRef }[] = [];

  for (const root of roots) {
    const decision = b.add({ t: at(root.start), type: "orchestrator_decision", agent: orchestrator, role: "orchestrator", decision: "spawn", content: root.span.span_name, span_id: root.span.span_id });
    let context: EventRef = decision;
    const returns: EventRef[] = [];
    for (const task of root.children.filter((n) => n.kind === "workflow.step")) {
      const agent = text(attr(task.span, "crewai.task.agent")) ?? agentOf(task) ?? task.span.span_name;
      const spawn = b.add({ t: at(task.start), type: "spawn", agent: orchestrator, role: "orchestrator", to: agent, content: text(attr(task.span, "agentops.entity.input")) ?? task.span.span_name, span_id: task.span.span_id }, [context, context === decision ? "spawn" : "causal"]);
      let previous: Parent = [spawn, "spawn"];
      const llms = descendants(task).filter((n) => n.kind === "llm" || n.kind === "tool");
      llms.forEach((node, i) => {
        if (node.kind === "tool") {
          const call = b.add({ t: at(node.start), t_end: at(node.end), type: "tool_call", agent, tool: node.span.span_name, content: text(attr(node.span, "agentops.entity.input")), span_id: node.span.span_id }, previous);
          const result = b.add({ t: at(node.end), type: "tool_result", agent, tool: node.span.span_name, content: text(attr(node.span, "agentops.entity.output")), ...status(node.span) }, [call, "return"]);
          previous = [result, "tool_dependency"];
          return;
        }
        const isLast = !llms.slice(i + 1).some((n) => n.kind === "llm");
        const ref = b.add(
          {
            t: at(node.start),
            t_end: at(node.end),
            type: isLast ? "return" : "message",
            agent,
            role: text(attr(task.span, "crewai.task.agent")) ?? agent,
            from: agent,
            to: orchestrator,
            content: text(attr(node.span, "gen_ai.completion.0.content")) ?? text(attr(task.span, "agentops.entity.output")),
            ...tokensOf(node.span),
            model: text(attr(node.span, "gen_ai.request.model")),
            ...status(node.span),
            span_id: node.span.span_id,
          },
          previous,
        );
        previous = [ref, "causal"];
        calls.push({ node, agent, ref });
        if (isLast) returns.push(ref);
      });
      if (llms.length === 0) skipped++;
      if (returns.length > 0) context = returns[returns.length - 1]!;
    }
    const result = text(attr(root.span, "crewai.crew.result")) ?? text(attr(root.span, "agentops.entity.output"));
    const parents: Parent[] = returns.length > 0 ? returns.map((r) => [r, "aggregate"]) : [[decision, "causal"]];
    b.add({ t: at(root.end), type: "aggregate", agent: orchestrator, role: "orchestrator", ...(result !== undefined ? { content: result } : {}), ...status(root.span) }, ...parents);
  }

  const first = roots[0]!.span;
  const taskNames = spans.filter((s) => attr(s, "agentops.span.kind") === "workflow.step").map((s) => s.span_name).join("\n");
  const built = b.build(
    {
      trace_id: `agentops-${slug(trace.trace_id)}`,
      task_id: `agentops-${shortHash(taskNames || first.span_name)}`,
      system: text(attr(first, "gen_ai.system")) ?? "agentops",
      topology: "centralized",
      rewards: {},
      metadata: {
        source: provenanceOf(path, "agentops", `AgentOps export (${stem(path)})`),
        topology_detail: text(attr(first, "crewai.crew.process")) ?? "span_tree",
        agentops_trace: trace,
        reported_tokens: Number(attr(first, "gen_ai.usage.total_tokens") ?? 0),
        ...(skipped > 0 ? { tasks_without_llm_spans: skipped } : {}),
      },
    },
    { clock: "seconds" },
  );
  const modelCalls = calls.flatMap(({ node, agent, ref }, i) => {
    const call = modelCallOf(node, agent);
    const event = built.events.find((e) => e.id === b.idOf(ref))!;
    // the call spans its event's interval (the span's, in the trace's seconds)
    return call ? [{ id: `call${i + 1}`, ...call, t: event.t, ...(event.t_end !== undefined ? { t_end: event.t_end } : {}), events: [event.id] }] : [];
  });
  return modelCalls.length > 0 ? { ...built, calls: modelCalls } : built;
}

const recordedMessages = z.array(callMessageSchema).min(1);

/** An LLM span's request and reply as the instrumentation recorded them, or null when either is missing or truncated. */
function modelCallOf(node: Node, agent: string): Omit<ModelCall, "id" | "events" | "t"> | null {
  if ((node.span as { freeplan_truncated?: unknown }).freeplan_truncated === true) return null;
  const input = recordedMessages.safeParse(attr(node.span, "gen_ai.prompt"));
  const output = recordedMessages.max(1).safeParse(attr(node.span, "gen_ai.completion"));
  if (!input.success || !output.success || output.data[0]!.role !== "assistant") return null;
  const model = text(attr(node.span, "gen_ai.request.model"));
  const count = (key: string) => {
    const n = Number(attr(node.span, `gen_ai.usage.${key}`));
    return attr(node.span, `gen_ai.usage.${key}`) !== undefined && Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  const inputTokens = count("prompt_tokens");
  const outputTokens = count("completion_tokens");
  return {
    agent,
    ...(model !== undefined ? { model } : {}),
    input: input.data,
    output: output.data[0]!,
    ...(inputTokens !== undefined ? { input_tokens: inputTokens } : {}),
    ...(outputTokens !== undefined ? { output_tokens: outputTokens } : {}),
    source: "import",
  };
}

function tree(spans: readonly Span[], path: string): Node[] {
  const nodes = new Map<string, Node>();
  for (const span of spans) {
    nodes.set(span.span_id, { span, kind: text(attr(span, "agentops.span.kind")) ?? "", children: [], start: seconds(span.start_time), end: seconds(span.end_time) });
  }
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.span.parent_span_id ? nodes.get(node.span.parent_span_id) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  for (const node of nodes.values()) node.children.sort((a, b) => a.start - b.start);
  if (roots.length === 0) throw new AdapterInputError("agentops", path, ["$.spans: every span has a parent (no root)"]);
  return roots.sort((a, b) => a.start - b.start);
}

function descendants(node: Node): Node[] {
  return node.children.flatMap((child) => [child, ...descendants(child)]).sort((a, b) => a.start - b.start);
}

function agentOf(task: Node): string | undefined {
  const agent = descendants(task).find((n) => n.kind === "agent");
  return agent ? text(attr(agent.span, "agent.role")) : undefined;
}

/** A dotted attribute path; list items are addressed by their index (`gen_ai.completion.0.content`). */
function attr(span: Span, dotted: string): unknown {
  let value: unknown = span.span_attributes;
  for (const key of dotted.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

function tokensOf(span: Span): { tokens?: number } {
  const total = Number(attr(span, "gen_ai.usage.total_tokens"));
  return Number.isFinite(total) && total >= 0 ? { tokens: total } : {};
}

function status(span: Span): { status?: string } {
  return span.status_code && span.status_code.toUpperCase() === "ERROR" ? { status: "error" } : {};
}

/** ISO time with microseconds to epoch seconds (Date keeps milliseconds, the fraction adds the rest). */
function seconds(iso: string): number {
  const ms = Date.parse(iso);
  const micros = /\.(\d{4,6})/.exec(iso)?.[1];
  return ms / 1000 + (micros ? (Number(micros.padEnd(6, "0")) % 1000) / 1e6 : 0);
}
