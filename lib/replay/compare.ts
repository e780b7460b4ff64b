import { messageText } from "../annotate/unit";
import type { ModelCall } from "../trace/calls";
import type { Origin } from "./plan";

/**
 * Two runs' model calls side by side (the compare page): each agent's k-th
 * call of one run beside its k-th call of the other, as a replay matches
 * them (lib/replay/plan.ts: per-agent cursors, so agents that interleave
 * differently still line up), in the order the calls were made.
 */

export interface CallSide {
  id: string;
  /** the reply as text: its text, then each tool it called as `name(arguments)` */
  reply: string;
}

export interface CallPair {
  agent: string;
  /** 1-based: the agent's k-th call */
  k: number;
  a: CallSide | null;
  b: CallSide | null;
  /** both replies the same text and tool calls */
  same: boolean;
  /** how b's call was answered, when b is a replay (its metadata.counterfactual.origins) */
  origin: Origin | null;
}

/** A reply as one line of text: its text and the tools it called (never its JSON as such). */
export function replyText(output: ModelCall["output"]): string {
  const m = messageText(output);
  const calls = (m.tool_calls ?? []).map((c) => `${c.name}(${c.arguments})`);
  return [m.content, ...calls].filter((s) => s !== "").join(" · ");
}

/** `origins[i]` answers b's i-th call in call order (null: b is no replay). */
export function pairCalls(a: readonly ModelCall[], b: readonly ModelCall[], origins: readonly Origin[] | null = null): CallPair[] {
  type Slot = { order: number; a: CallSide | null; b: CallSide | null; aReply: unknown; bReply: unknown; origin: Origin | null };
  const slots = new Map<string, Slot>();
  const place = (calls: readonly ModelCall[], side: "a" | "b") => {
    const seen = new Map<string, number>();
    calls.forEach((call, i) => {
      const k = (seen.get(call.agent) ?? 0) + 1;
      seen.set(call.agent, k);
      const key = JSON.stringify([call.agent, k]);
      const slot = slots.get(key) ?? { order: Infinity, a: null, b: null, aReply: undefined, bReply: undefined, origin: null };
      slot.order = Math.min(slot.order, i);
      slot[side] = { id: call.id, reply: replyText(call.output) };
      if (side === "a") slot.aReply = call.output;
      else {
        slot.bReply = call.output;
        slot.origin = origins?.[i] ?? null;
      }
      slots.set(key, slot);
    });
  };
  place(a, "a");
  place(b, "b");
  return [...slots.entries()]
    .map(([key, s]) => {
      const [agent, k] = JSON.parse(key) as [string, number];
      const same = s.a !== null && s.b !== null && s.a.reply === s.b.reply;
      return { order: s.order, pair: { agent, k, a: s.a, b: s.b, same, origin: s.origin } };
    })
    .sort((x, y) => x.order - y.order || x.pair.agent.localeCompare(y.pair.agent) || x.pair.k - y.pair.k)
    .map((x) => x.pair);
}
