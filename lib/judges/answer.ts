import { z } from "zod";

/**
 * Strict reading of a judge's reply (SPEC.md section 9): a JSON object
 * `{"value": <number>, "reason": "<one line>"}` and nothing else. A reply
 * that is not that, or whose value is out of range, is a failure carrying
 * the raw text: never guessed, never clamped.
 */
export type Answer = { ok: true; value: number; reason: string } | { ok: false; error: string };

/** 0/1 for trace-level task_success, [-1, 1] for everything else. */
export type ValueRange = "binary" | "signed";

export function rangeOf(family: string, unit: "event" | "trace"): ValueRange {
  return family === "task_success" && unit === "trace" ? "binary" : "signed";
}

const REPLY = z.strictObject({ value: z.number(), reason: z.string().trim().min(1).max(1000) });

/** The JSON schema sent as response_format where the endpoint supports it. */
export function answerSchema(range: ValueRange): Record<string, unknown> {
  const value = range === "binary" ? { type: "integer", enum: [0, 1] } : { type: "number", minimum: -1, maximum: 1 };
  return {
    name: "judge_answer",
    strict: true,
    schema: { type: "object", additionalProperties: false, required: ["value", "reason"], properties: { value, reason: { type: "string" } } },
  };
}

export function parseAnswer(raw: string, range: ValueRange): Answer {
  let json: unknown;
  try {
    json = JSON.parse(raw.trim());
  } catch {
    return { ok: false, error: "reply is not JSON" };
  }
  const parsed = REPLY.safeParse(json);
  if (!parsed.success) return { ok: false, error: `reply is not {"value": number, "reason": string}: ${parsed.error.issues[0]?.message ?? "invalid"}` };
  const { value, reason } = parsed.data;
  if (!Number.isFinite(value)) return { ok: false, error: "value is not a finite number" };
  if (range === "binary" && value !== 0 && value !== 1) return { ok: false, error: `value ${value} is not 0 or 1` };
  if (range === "signed" && (value < -1 || value > 1)) return { ok: false, error: `value ${value} is outside [-1, 1]` };
  return { ok: true, value, reason: reason.split("\n")[0]! };
}
