import { z } from "zod";
import { ORIGINS } from "./plan";

/**
 * What a replay's trace says of where it came from (`metadata.counterfactual`,
 * docs/replay.md "Forks as traces"): the trace it replays, the call changed
 * (null for an unchanged replay), how each of its calls was answered. Read
 * from metadata, which any import may set: anything that does not parse is
 * no replay.
 */
const schema = z.object({
  counterfactual: z.object({
    of: z.string().min(1),
    call_id: z.string().nullable(),
    edit: z.record(z.string(), z.unknown()).nullable(),
    intent: z.string().nullable(),
    intervention: z.number().int().nullable(),
    sample: z.number().int().min(1),
    origins: z.array(z.enum(ORIGINS)),
    divergence: z.object({ call_index: z.number().int().min(0), agent: z.string() }).nullable(),
  }),
});

export interface ReplayProvenance {
  /** the trace replayed */
  of: string;
  /** the changed call, null for an unchanged replay */
  callId: string | null;
  /** what the edit replaced: the call's reply or a tool result it read */
  replaced: "reply" | "tool_result" | null;
  intent: string | null;
  intervention: number | null;
  sample: number;
  /** calls answered from the record, by the edit, by the model */
  answered: Record<(typeof ORIGINS)[number], number>;
  /** 1-based request at which the program left the record, and its agent */
  diverged: { request: number; agent: string } | null;
  /** how each call was answered, in call order */
  origins: (typeof ORIGINS)[number][];
}

export function replayProvenance(metadata: unknown): ReplayProvenance | null {
  const parsed = schema.safeParse(metadata);
  if (!parsed.success) return null;
  const c = parsed.data.counterfactual;
  const answered = { record: 0, edit: 0, live: 0 };
  for (const o of c.origins) answered[o]++;
  const replaced = c.edit === null ? null : "tool_result" in c.edit ? "tool_result" : "reply";
  return {
    of: c.of,
    callId: c.call_id,
    replaced,
    intent: c.intent,
    intervention: c.intervention,
    sample: c.sample,
    answered,
    diverged: c.divergence === null ? null : { request: c.divergence.call_index + 1, agent: c.divergence.agent },
    origins: c.origins,
  };
}
