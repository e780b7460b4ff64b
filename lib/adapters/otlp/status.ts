import { spanFailed, textAttr, type OtlpSpan } from "../otlp-span";
import { CONTROL_FLOW } from "./model";

/**
 * `status: "error"` with `error_type` and `status_message` for a failed
 * span; `status: "ok"` otherwise when `withOk` (tool results). LangGraph's
 * control-flow exceptions (ParentCommand, GraphBubbleUp, ...) set span
 * status ERROR on the nodes they pass through: they are kept as
 * `control_flow`, never as a failure.
 */
export function statusOf(span: OtlpSpan, withOk = false): Record<string, string> {
  const flow = CONTROL_FLOW.exec(span.status.message ?? "")?.[1];
  if (flow !== undefined) return { ...(withOk ? { status: "ok" } : {}), control_flow: flow };
  if (!spanFailed(span)) return withOk ? { status: "ok" } : {};
  const type = textAttr(span.attributes, "error.type");
  return { status: "error", ...(type ? { error_type: type } : {}), ...(span.status.message ? { status_message: span.status.message.trim().split("\n")[0]! } : {}) };
}
