import type { OtlpSpan } from "../otlp-span";

/**
 * What one span means for orchestration, whichever convention family wrote
 * it. Each family module (families/*.ts) reads its own attributes into this
 * shape; map.ts builds the trace from it alone.
 */

export type Family = "genai" | "vercel" | "openinference" | "traceloop" | "mastra" | "logfire" | "agentops" | "adk";

export type Role =
  /** the run itself (a workflow root, OpenAI Agents' "Agent workflow", LangGraph's graph): no lane of its own */
  | "run"
  /** an agent's turn: its steps run in its lane */
  | "agent"
  /** an agent is made, not run (GenAI create_agent) */
  | "create_agent"
  /** one model call */
  | "llm"
  /** one tool execution (a handoff too, when `handoffTo` is set) */
  | "tool"
  /** plumbing (HTTP, chains, graph internals): what it holds belongs to the enclosing agent */
  | "other";

export interface ToolCallPart {
  id?: string;
  name: string;
  /** the arguments as the model wrote them (JSON text) */
  args: string;
}

export interface Classified {
  family: Family;
  role: Role;
  /** agent name (agent, create_agent), tool name (tool) */
  name?: string;
  /** readable input: an agent's or run's request, a tool's arguments */
  input?: string;
  /** the run's request as the user wrote it (first user message), when the span has it */
  request?: string;
  /** readable output: an agent's answer, a tool's result, a model call's text */
  output?: string;
  /** model calls: the tool calls the output asked for */
  calls?: ToolCallPart[];
  /** tool spans: the id of the call they execute */
  toolCallId?: string;
  /** tool spans that hand control to another agent (transfer_to_x, OpenAI Agents handoff spans) */
  handoffTo?: string;
  /** agents: the agent that handed over to this one (OpenInference graph.node.parent_id) */
  parentAgent?: string;
  /** plumbing that repeats its agent (a same-name subgraph): part of the agent, not listed as unmapped */
  absorbed?: boolean;
  /** steps that name the agent they run for when no span is an agent (ADK's `adk_agent_name` label, LlamaIndex's `current_agent_name`) */
  agent?: string;
  model?: string;
  usage?: { input?: number; output?: number; total?: number };
}

export type Classifier = (span: OtlpSpan) => Classified | undefined;

/**
 * `transfer_to_<agent>` (LangGraph supervisor and swarm, OpenAI Agents' handoff
 * tools) names the agent it hands over to; Google ADK's one `transfer_to_agent`
 * tool names it in its `agent_name` argument.
 */
export function transferTarget(toolName: string | undefined, args?: string): string | undefined {
  if (toolName === "transfer_to_agent") {
    try {
      const parsed = JSON.parse(args ?? "") as unknown;
      const name = typeof parsed === "object" && parsed !== null ? (parsed as { agent_name?: unknown }).agent_name : undefined;
      return typeof name === "string" && name !== "" ? name : undefined;
    } catch {
      return undefined;
    }
  }
  const m = toolName === undefined ? null : /^(?:transfer_to|handoff_to)_(.+)$/.exec(toolName);
  return m?.[1];
}

/** LangGraph raises these to move between graphs: control flow, not failures. */
export const CONTROL_FLOW = /^\s*(ParentCommand|GraphBubbleUp|GraphInterrupt|NodeInterrupt|Command)\b/;
