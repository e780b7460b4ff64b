import { textAttr, type OtlpSpan } from "../otlp-span";
import { parseJson } from "./content";
import { classifyAdk } from "./families/adk";
import { classifyAgentOps, classifyIndexedPrompt } from "./families/agentops";
import { classifyGenAi } from "./families/genai";
import { classifyLogfire } from "./families/logfire";
import { classifyMastra, inMastraStep, withStepCalls } from "./families/mastra";
import { classifyOpenInference } from "./families/openinference";
import { classifyTraceloop } from "./families/traceloop";
import { classifyVercel } from "./families/vercel";
import type { Classified, Classifier } from "./model";

/**
 * Which family reads a span: the most specific first (Mastra and Traceloop
 * also write GenAI attributes; the AI SDK writes a few `gen_ai.*` beside its
 * own `ai.*`; logfire and ADK write a few GenAI attributes beside their
 * own). Model calls with only indexed `gen_ai.prompt.N.*` attributes come
 * last. Spans no family claims are plumbing ("other").
 */
const FAMILIES: readonly Classifier[] = [classifyMastra, classifyAgentOps, classifyTraceloop, classifyLogfire, classifyAdk, classifyOpenInference, classifyVercel, classifyGenAi, classifyIndexedPrompt];

export function classifySpan(span: OtlpSpan): Classified {
  for (const classify of FAMILIES) {
    const c = classify(span);
    if (c !== undefined) return c;
  }
  return { family: "genai", role: "other" };
}

export interface SpanNode {
  span: OtlpSpan;
  c: Classified;
  children: SpanNode[];
  parent?: SpanNode;
}

/**
 * What only the tree shows:
 * - a LangGraph node running a same-name subgraph is an agent (the node
 *   span becomes the agent, the subgraph span plumbing), also when the
 *   node is a CHAIN, and also through a function wrapping the subgraph
 *   (langgraph-supervisor's `call_agent`: plumbing, never a lane);
 * - an agent span directly inside an agent span of the same name is the
 *   same agent (a graph invoking itself, an AI SDK call nested in its own
 *   tool): plumbing;
 * - a root that is not an agent, model call or tool is the run;
 * - a Mastra 1.x model call takes the tool calls its step span recorded.
 */
/**
 * A LangGraph node whose runnable wraps a same-name graph in a function
 * (langgraph-supervisor's `_make_call_agent`: node `<expert>` runs
 * `call_agent`, which invokes the compiled `<expert>` graph). The wrapper
 * runs inside the node (`metadata.langgraph_node` names it) and has no
 * `graph.node.id`; LangChain's Python tracer types it AGENT because its name
 * contains "agent". The wrapper and the graph it runs, or undefined.
 */
function nodeWrapper(node: SpanNode): { wrapper: SpanNode; graph: SpanNode } | undefined {
  for (const wrapper of node.children) {
    if (wrapper.c.family !== "openinference" || wrapper.span.name === node.span.name || textAttr(wrapper.span.attributes, "graph.node.id") !== undefined) continue;
    if (wrapper.c.role !== "other" && wrapper.c.role !== "agent") continue;
    if (langgraphNodeOf(wrapper.span) !== node.span.name) continue;
    const graph = wrapper.children.find((k) => k.span.name === node.span.name && (k.c.role === "other" || k.c.role === "agent"));
    if (graph !== undefined) return { wrapper, graph };
  }
  return undefined;
}

function langgraphNodeOf(span: OtlpSpan): string | undefined {
  const metadata = parseJson(textAttr(span.attributes, "metadata"));
  const node = typeof metadata === "object" && metadata !== null && !Array.isArray(metadata) ? metadata.langgraph_node : undefined;
  return typeof node === "string" ? node : undefined;
}

export function refine(roots: readonly SpanNode[]): void {
  const visit = (node: SpanNode, agent: string | undefined) => {
    const { c, span } = node;
    if (c.family === "openinference" && c.role === "other" && textAttr(span.attributes, "openinference.span.kind")?.toUpperCase() === "CHAIN") {
      const same = node.children.find((k) => k.span.name === span.name && k.c.role === "other");
      if (same !== undefined && span.name !== "LangGraph" && node.parent !== undefined) {
        node.c = { ...c, role: "agent", name: span.name };
        same.c = { ...same.c, absorbed: true };
      }
    }
    const wrapped = c.family === "openinference" && node.parent !== undefined && span.name !== "LangGraph" ? nodeWrapper(node) : undefined;
    if (wrapped !== undefined) {
      // langgraph-supervisor: the expert's node runs `call_agent`, which runs the expert's compiled graph
      node.c = { ...node.c, role: "agent", name: span.name };
      wrapped.wrapper.c = { ...wrapped.wrapper.c, role: "other", absorbed: true };
      if (wrapped.graph.c.role === "other") wrapped.graph.c = { ...wrapped.graph.c, absorbed: true };
    }
    if (inMastraStep(node.c, node.parent?.span)) {
      node.c = withStepCalls(node.c, node.parent.span);
      node.parent.c = { ...node.parent.c, absorbed: true };
    }
    if (node.c.role === "agent" && node.c.name === agent) node.c = { ...node.c, role: "other", absorbed: true };
    const inside = node.c.role === "agent" ? node.c.name : agent;
    for (const child of node.children) visit(child, inside);
  };
  for (const root of roots) {
    if (root.c.role === "other") root.c = { ...root.c, role: "run" };
    visit(root, undefined);
  }
}
