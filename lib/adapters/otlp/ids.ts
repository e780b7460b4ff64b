import { shortHash } from "../emit";
import type { AttrValue, Attributes, OtlpSpan } from "../otlp-span";
import { compareStart } from "../otlp-span";

/**
 * `task_id` and `group_id` of a run. Users set them in one line, as
 * `baton.task_id` / `baton.group_id` on the resource or on any span; the
 * frameworks' own metadata channels carry them too (AI SDK
 * `experimental_telemetry.metadata` -> `ai.telemetry.metadata.baton.*`; AI SDK v7
 * runtime context with `includeRuntimeContext` -> `ai.settings.context.baton.*`,
 * Traceloop association properties -> `traceloop.association.properties.baton.*`,
 * OpenInference `metadata` JSON). Without one, the task is a stable hash of
 * the run's request (reruns of one request share a task); never a span name.
 */

function fromAttributes(attributes: Attributes, key: string): string | undefined {
  for (const [k, v] of Object.entries(attributes)) {
    if ((k === key || k.endsWith(`.${key}`)) && (typeof v === "string" || typeof v === "number") && String(v) !== "") return String(v);
  }
  const metadata: AttrValue | undefined = attributes.metadata;
  if (typeof metadata === "string" && metadata.includes(key)) {
    try {
      const parsed = JSON.parse(metadata) as Record<string, unknown>;
      const value = parsed[key];
      if (typeof value === "string" || typeof value === "number") return String(value);
    } catch {
      // not JSON: no id there
    }
  }
  return undefined;
}

export function batonAttribute(spans: readonly OtlpSpan[], key: "baton.task_id" | "baton.group_id"): string | undefined {
  const ordered = [...spans].sort(compareStart);
  for (const span of ordered) {
    const value = fromAttributes(span.resource, key) ?? fromAttributes(span.attributes, key);
    if (value !== undefined) return value;
  }
  return undefined;
}

export function taskIdOf(spans: readonly OtlpSpan[], request: string | undefined, traceId: string): string {
  return batonAttribute(spans, "baton.task_id") ?? (request !== undefined ? `request-${shortHash(request.trim())}` : `trace-${traceId}`);
}
