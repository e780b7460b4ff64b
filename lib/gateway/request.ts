import { createHash } from "node:crypto";
import { MAX_ID_LENGTH } from "@/lib/trace/limits";
import { isObject, type JsonObject } from "./call";

/**
 * Who a gateway call belongs to, from the request alone (docs/gateway.md
 * "Runs and agents"): the path `/api/llm[/project/<name>][/run/<key>]/v1/<api>`,
 * headers, and the body's own fields.
 */

export const GATEWAY_APIS = { "chat/completions": "chat", responses: "responses" } as const;
export type GatewayApi = (typeof GATEWAY_APIS)[keyof typeof GATEWAY_APIS];

export const RUN_HEADER = "x-baton-run";
export const AGENT_HEADER = "x-baton-agent";

export interface GatewayPath {
  project: string | null;
  runKey: string | null;
  api: GatewayApi;
}

/** The path segments after `/api/llm/`, or null when they name no gateway endpoint. */
export function parseGatewayPath(segments: readonly string[]): GatewayPath | null {
  let rest = [...segments];
  let project: string | null = null;
  let runKey: string | null = null;
  if (rest[0] === "project" && rest.length > 1) {
    project = rest[1]!;
    rest = rest.slice(2);
  }
  if (rest[0] === "run" && rest.length > 1) {
    runKey = rest[1]!;
    rest = rest.slice(2);
  }
  if (rest[0] !== "v1") return null;
  const api = GATEWAY_APIS[rest.slice(1).join("/") as keyof typeof GATEWAY_APIS];
  return api === undefined ? null : { project, runKey, api };
}

/** A run key or agent name as Baton keeps it: trimmed, at most MAX_ID_LENGTH characters; null when empty. */
export function cleanName(raw: string | null | undefined): string | null {
  const name = raw?.trim() ?? "";
  return name === "" ? null : name.slice(0, MAX_ID_LENGTH);
}

/**
 * The agent of a call: the `x-baton-agent` header; else the body's
 * `metadata.baton_agent` or `metadata.agent`; else its `user`; else
 * `agent-` + the first 8 hex digits of the SHA-256 of the system prompt
 * (the `system`/`developer` messages' text, or the Responses API's
 * `instructions`), so that calls with the same instructions share a lane;
 * `agent` when there is no system prompt at all.
 */
export function agentOf(header: string | null, body: JsonObject): string {
  const metadata = isObject(body.metadata) ? body.metadata : {};
  for (const candidate of [header, metadata.baton_agent, metadata.agent, body.user]) {
    const name = typeof candidate === "string" ? cleanName(candidate) : null;
    if (name !== null) return name;
  }
  const system = systemPrompt(body);
  return system === null ? "agent" : `agent-${createHash("sha256").update(system).digest("hex").slice(0, 8)}`;
}

function systemPrompt(body: JsonObject): string | null {
  if (typeof body.instructions === "string" && body.instructions !== "") return body.instructions;
  const messages = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : [];
  const texts = messages
    .filter((m): m is JsonObject => isObject(m) && (m.role === "system" || m.role === "developer"))
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
  return texts.length === 0 ? null : texts.join("\n");
}

/** The trace a run becomes: `gw-` + its run key. */
export const traceIdOfRun = (runKey: string) => `gw-${runKey}`.slice(0, MAX_ID_LENGTH);

/**
 * The OTLP trace and span a call was made under, from its W3C
 * `traceparent` header (`00-<32 hex trace id>-<16 hex span id>-<flags>`);
 * null when absent or malformed, or when either id is all zeros (invalid
 * by the W3C rules).
 */
export function parseTraceparent(header: string | null): { traceId: string; spanId: string } | null {
  const m = /^\s*([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?\s*$/.exec(header?.toLowerCase() ?? "");
  if (m === null || m[1] === "ff" || /^0+$/.test(m[2]!) || /^0+$/.test(m[3]!)) return null;
  return { traceId: m[2]!, spanId: m[3]! };
}
