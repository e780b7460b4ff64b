/**
 * What an annotator sees of the unit being graded (the wire format of
 * `GET /api/traces/{id}/annotations/context`): the unit's content, what it
 * read (its direct causal predecessors), for a tool call its result, and
 * for a whole trace the task, the final answer and a compact timeline. All
 * content is untrusted text: the client shows it as text, never as HTML.
 */
import type { DefinitionPart } from "./task-definition";
import type { GraderFieldValue } from "./grader-fields";

export interface UnitEvent {
  id: string;
  seq: number;
  t: number;
  type: string;
  agent: string;
  role: string | null;
  from: string | null;
  to: string | null;
  tool: string | null;
  decision: string | null;
  status: string | null;
  tokens: number | null;
  /** null when the event has no content */
  content: string | null;
  /** full length in characters (content is cut at CONTENT_MAX) */
  content_length: number | null;
}

export interface ReadFrom extends UnitEvent {
  /** type of the causal edge into the unit */
  edge: string;
}

export interface TimelineEntry {
  seq: number;
  id: string;
  agent: string;
  type: string;
  summary: string;
}

/** The model call that produced an event (SPEC.md section 6, `calls`): the prompt the step came from. */
export interface UnitCall {
  id: string;
  agent: string;
  model: string | null;
  /** the messages the model was sent; each message's text cut at CONTENT_MAX */
  input: UnitMessage[];
  output: UnitMessage;
  /** ids of every event the call produced (this one among them) */
  events: string[];
}

export interface EventContext {
  unit: "event";
  trace_id: string;
  event: UnitEvent;
  /** the model call that produced the event; null (or absent, in contexts built without calls) when none is recorded */
  call?: UnitCall | null;
  read: ReadFrom[];
  /** more direct predecessors than shown */
  read_more: number;
  /** for a tool_call: its direct tool_result successors */
  results: UnitEvent[];
}

export interface TraceContext {
  unit: "trace";
  trace_id: string;
  task_id: string;
  system: string | null;
  events: number;
  /** the task as stated: the task definition's instruction (lib/annotate/task-definition.ts), else the first event's content */
  task: string | null;
  task_source: string | null;
  /** the reference answer of the task definition, when the run carries one */
  reference: DefinitionPart | null;
  /** the policy or system prompt the agents worked under, when the run carries one */
  policy: DefinitionPart | null;
  /** further metadata the trace's project shows graders (lib/annotate/grader-fields.ts), in the project's order */
  fields: GraderFieldValue[];
  /** the terminal event (SPEC.md section 1) and its content */
  final_answer: UnitEvent | null;
  agents: { agent: string; events: number; first_seq: number; last_seq: number }[];
  /** the first and last events in event order */
  timeline: TimelineEntry[];
  /** events left out of the timeline between its two parts */
  timeline_gap: number;
}

export type UnitContext = EventContext | TraceContext;

/** At most this many characters of one content are sent (the length says when more exists). */
export const CONTENT_MAX = 100_000;

/** A model call's message as an annotator reads it: its text, the tools it called (an assistant's) and the call it answers (a tool message's). */
export interface UnitMessage {
  role: string;
  /** the text ("" when the message has none: an assistant message that only calls tools) */
  content: string;
  /** an assistant's tool calls: name, arguments as text (JSON for an object), the call's id when it has one */
  tool_calls?: { id: string | null; name: string; arguments: string }[];
  /** a tool message's: the id of the tool call it answers */
  tool_call_id?: string;
}

/** A message's readable text: its content when text, else its parts' text joined (JSON for parts without text); its tool calls and the call it answers beside. */
export function messageText(message: unknown): UnitMessage {
  if (typeof message === "string") return { role: "assistant", content: message.slice(0, CONTENT_MAX) };
  const m = (typeof message === "object" && message !== null ? message : {}) as { role?: unknown; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown };
  const role = typeof m.role === "string" ? m.role : "?";
  const content = typeof m.content === "string"
    ? m.content
    : Array.isArray(m.content)
      ? m.content.map((p: unknown) => (typeof p === "object" && p !== null && typeof (p as { text?: unknown }).text === "string" ? (p as { text: string }).text : JSON.stringify(p))).join("\n")
      : m.content === null || m.content === undefined
        ? ""
        : JSON.stringify(m.content);
  const out: UnitMessage = { role, content: content.slice(0, CONTENT_MAX) };
  if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
    out.tool_calls = m.tool_calls.map((c: unknown) => {
      const t = (typeof c === "object" && c !== null ? c : {}) as { id?: unknown; name?: unknown; arguments?: unknown };
      const args = typeof t.arguments === "string" ? t.arguments : JSON.stringify(t.arguments ?? null);
      return { id: typeof t.id === "string" ? t.id : null, name: typeof t.name === "string" ? t.name : "?", arguments: args.slice(0, CONTENT_MAX) };
    });
  }
  if (typeof m.tool_call_id === "string") out.tool_call_id = m.tool_call_id;
  return out;
}
/** At most this many predecessors are sent (aggregates can read hundreds). */
export const READ_MAX = 20;
export const TIMELINE_HEAD = 12;
export const TIMELINE_TAIL = 8;

/** A key of `metadata` that states the task (first one that is a non-empty string). */
export function taskFromMetadata(metadata: unknown): { text: string; source: string } | null {
  if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) return null;
  for (const key of ["task", "question", "query", "instruction", "prompt"]) {
    const value = (metadata as Record<string, unknown>)[key];
    if (typeof value === "string" && value.trim() !== "") return { text: value, source: `metadata.${key}` };
  }
  return null;
}

/** Content as an annotator reads it: JSON pretty-printed (objects and arrays only), anything else unchanged. */
export function readableContent(content: string): { text: string; json: boolean } {
  const trimmed = content.trim();
  if ((trimmed.startsWith("{") && trimmed.endsWith("}")) || (trimmed.startsWith("[") && trimmed.endsWith("]"))) {
    try {
      return { text: JSON.stringify(JSON.parse(trimmed), null, 2), json: true };
    } catch {
      // not JSON after all
    }
  }
  return { text: content, json: false };
}
