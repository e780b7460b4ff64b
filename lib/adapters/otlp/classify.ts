import { textAttr, type OtlpSpan } from "../otlp-span";
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
 *   node is a CHAIN;
 * - an agent span directly inside an agent span of the same name is the
 *   same agent (a graph invoking itself, an AI SDK call nested in its own
 *   tool): plumbing;
 * - a root that is not an agent, model call or tool is the run;
 * - a Mastra 1.x model call takes the tool calls its step span recorded.
 */
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
