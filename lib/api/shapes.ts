import { z } from "zod";
import { SPEC_VERSION } from "@/lib/metrics/types";
import { FAMILIES } from "@/lib/trace/types";

/**
 * Pieces of output schemas that several contracts share: the spec version
 * every computed answer carries, a value per family, a success rate.
 */

export const specVersion = z.literal(SPEC_VERSION);

/** One value per family, all eight present. */
export const byFamily = <T extends z.ZodType>(value: T) => z.record(z.enum(FAMILIES), value);

/** A Wilson success rate (lib/stats/wilson.ts): null bounds without a trace with E1. */
export const successRate = z.strictObject({ rate: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable(), n: z.number() });

export const e1Value = z.union([z.literal(0), z.literal(1)]).nullable();

/** The fields every event summary of an answer starts with (a unit's events, a queue item's event). */
export const eventHead = {
  id: z.string(),
  seq: z.number(),
  t: z.number(),
  type: z.string(),
  agent: z.string(),
  role: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  tool: z.string().nullable(),
  decision: z.string().nullable(),
  status: z.string().nullable(),
};
