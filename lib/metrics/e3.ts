/**
 * E3 collaboration quality (SPEC.md section 4): repeated messages, messages
 * that never reached the result, and how many different agents feed each
 * aggregate.
 */
import type { TraceEvent } from "../trace/types";
import type { TraceAnalysis } from "./analysis";
import type { E3Metrics } from "./types";

export interface E3Result {
  readonly metrics: E3Metrics;
  /** 1 for messages that are not ancestors of the terminal event. */
  readonly deadMessage: Uint8Array;
}

/** Computes E3. O(V + E) plus the length of message contents. */
export function computeE3(a: TraceAnalysis): E3Result {
  const { graph } = a;
  const events = a.trace.events;
  const deadMessage = new Uint8Array(graph.n);
  const keys = new Set<string>();
  let messages = 0;
  let dead = 0;
  for (let i = 0; i < graph.n; i++) {
    const e = events[i]!;
    if (e.type !== "message") continue;
    messages++;
    keys.add(messageKey(e));
    // "Not an ancestor of the terminal event", read literally: a message that
    // is itself the terminal event is not its own ancestor.
    if (a.terminalDist[i]! <= 0) {
      deadMessage[i] = 1;
      dead++;
    }
  }
  return {
    metrics: {
      message_redundancy: messages === 0 ? null : 1 - keys.size / messages,
      dead_message_rate: messages === 0 ? null : dead / messages,
      aggregate_diversity: aggregateDiversity(a),
    },
    deadMessage,
  };
}

/**
 * Whitespace is the Unicode White_Space property (SPEC.md section 4), not
 * JavaScript's `\s`: U+0085 (NEXT LINE) is whitespace, U+FEFF (the byte
 * order mark) is not, so that an implementation in another language gets
 * the same keys.
 */
const WHITE_SPACE_RUN = /\p{White_Space}+/gu;
const EDGE_SPACE = /^ | $/g;

/**
 * What makes two messages "the same": content_ref, else the content
 * lower-cased (Unicode default case mapping) with runs of whitespace
 * collapsed to one space and both ends trimmed, else the event id (a message
 * without content is never a repeat).
 */
export function messageKey(e: Pick<TraceEvent, "id" | "content_ref" | "content">): string {
  if (e.content_ref !== undefined) return e.content_ref;
  if (e.content !== undefined) return e.content.toLowerCase().replace(WHITE_SPACE_RUN, " ").replace(EDGE_SPACE, "");
  return e.id;
}

/** Mean over aggregates with direct predecessors of distinct agents among them / their number. */
function aggregateDiversity(a: TraceAnalysis): number | null {
  const { graph } = a;
  const events = a.trace.events;
  const agents = new Set<string>();
  let sum = 0;
  let count = 0;
  for (let i = 0; i < graph.n; i++) {
    if (events[i]!.type !== "aggregate") continue;
    const begin = graph.predStart[i]!;
    const end = graph.predStart[i + 1]!;
    if (end === begin) continue;
    agents.clear();
    for (let p = begin; p < end; p++) agents.add(events[graph.pred[p]!]!.agent);
    sum += agents.size / (end - begin);
    count++;
  }
  return count === 0 ? null : sum / count;
}
