import { textAttr, type OtlpSpan } from "../otlp-span";
import type { SpanNode } from "./classify";
import { parseJson } from "./content";

/**
 * What the tree shows once classify.ts has refined it, for runs where two
 * instrumentations describe one thing, or a tracer types a span by its name:
 * - a tool span directly inside a tool span of the same tool is the same
 *   execution seen twice (AutoGen: OpenInference's `<agent>.<tool>` holds
 *   autogen-core's own `execute_tool <tool>`): the inner one is absorbed and
 *   lends the outer its `gen_ai.tool.call.id`;
 * - a model call directly inside a model call of the same span name, within
 *   its time, is the same call wrapped again (smolagents before
 *   openinference's duplicate-span fix: `<Model>.generate` three deep): one
 *   model call, the outer span, taking what only the inner ones recorded;
 * - an agent that absorbed a same-name agent span takes the handover that
 *   span recorded (AutoGen: the native `invoke_agent <name>` holds
 *   OpenInference's `<name>.on_messages_stream` with `graph.node.parent_id`);
 * - a tool span without a call id inside a LlamaIndex `call_tool` step
 *   takes the id of the ToolCall event the step was given (`ev.tool_id`);
 * - LangChain's Python tracer types every run whose name contains "agent"
 *   as AGENT; a LangGraph node so typed (`metadata.langgraph_node` = its
 *   name) inside an agent, running no same-name subgraph, is a step of that
 *   agent's graph (create_react_agent's model node "agent"), not an agent.
 */
export function refineLayers(roots: readonly SpanNode[]): void {
  const visit = (node: SpanNode, insideAgent: boolean) => {
    const { c } = node;
    if (c.role === "tool") {
      const twin = node.children.find((k) => k.c.role === "tool" && k.c.name === c.name);
      if (twin !== undefined) {
        twin.c = { ...twin.c, role: "other", absorbed: true };
        if (c.toolCallId === undefined && twin.c.toolCallId !== undefined) node.c = { ...c, toolCallId: twin.c.toolCallId };
      }
    }
    if (c.role === "llm") node.c = collapseWrappedCalls(node);
    if (node.c.role === "tool" && node.c.toolCallId === undefined) {
      const id = boundToolId(node.parent);
      if (id !== undefined) node.c = { ...node.c, toolCallId: id };
    }
    if (c.role === "agent" && insideAgent && isNamedLangGraphNode(node)) node.c = { ...c, role: "other" };
    if (node.c.role === "agent" && node.c.parentAgent === undefined) {
      const parent = absorbedTwin(node)?.c.parentAgent;
      if (parent !== undefined) node.c = { ...node.c, parentAgent: parent };
    }
    const inside = insideAgent || node.c.role === "agent";
    for (const child of node.children) visit(child, inside);
  };
  for (const root of roots) visit(root, false);
}

/** Absorbs the same-name model-call spans nested directly in `node`; returns its classification with what they add. */
function collapseWrappedCalls(node: SpanNode): SpanNode["c"] {
  let c = node.c;
  for (let at = node; ; ) {
    const twin = at.children.find((k) => k.c.role === "llm" && k.span.name === node.span.name && within(k.span, at.span));
    if (twin === undefined) return c;
    c = {
      ...c,
      ...(c.output === undefined && twin.c.output !== undefined ? { output: twin.c.output } : {}),
      ...((c.calls ?? []).length === 0 && (twin.c.calls ?? []).length > 0 ? { calls: twin.c.calls } : {}),
      ...(c.request === undefined && twin.c.request !== undefined ? { request: twin.c.request } : {}),
      ...(c.usage?.total === undefined && twin.c.usage?.total !== undefined ? { usage: twin.c.usage } : {}),
    };
    twin.c = { ...twin.c, role: "other", absorbed: true };
    at = twin;
  }
}

function boundToolId(parent: SpanNode | undefined): string | undefined {
  if (parent === undefined || parent.c.family !== "openinference" || parent.c.role !== "other") return undefined;
  const bound = parseJson(textAttr(parent.span.attributes, "input.value"));
  const ev = typeof bound === "object" && bound !== null && !Array.isArray(bound) ? bound.ev : undefined;
  const id = typeof ev === "object" && ev !== null && !Array.isArray(ev) ? ev.tool_id : undefined;
  return typeof id === "string" && id !== "" ? id : undefined;
}

const within = (inner: OtlpSpan, outer: OtlpSpan) => BigInt(inner.startTimeUnixNano) >= BigInt(outer.startTimeUnixNano) && BigInt(inner.endTimeUnixNano) <= BigInt(outer.endTimeUnixNano);

function isNamedLangGraphNode(node: SpanNode): boolean {
  const { span, c } = node;
  if (c.family !== "openinference" || textAttr(span.attributes, "graph.node.id") !== undefined || !/agent/i.test(span.name)) return false;
  const metadata = parseJson(textAttr(span.attributes, "metadata"));
  const langgraphNode = typeof metadata === "object" && metadata !== null && !Array.isArray(metadata) ? metadata.langgraph_node : undefined;
  return langgraphNode === span.name && !node.children.some((k) => k.span.name === span.name);
}

/** The same-name agent span this agent absorbed (looking through plumbing). */
function absorbedTwin(node: SpanNode): SpanNode | undefined {
  for (const k of node.children) {
    if (k.c.absorbed === true && k.c.name === node.c.name) return k;
    if (k.c.role === "other" && k.c.absorbed !== true) {
      const found = absorbedTwin(k);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
