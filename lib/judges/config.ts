import { z } from "zod";
import { MAX_ID_LENGTH } from "../trace/limits";
import { EVENT_TYPES, FAMILIES } from "../trace/types";

/** A judge's own prompt per family (the `prompts` column as written and read back). */
export const judgePrompts = z.partialRecord(z.enum(FAMILIES), z.string().max(10_000));

/** A judge as written by admins (`POST /api/judges`, `PATCH /api/judges/{id}`). */
export const judgeInput = z.strictObject({
  project: z.string().min(1).max(MAX_ID_LENGTH, `at most ${MAX_ID_LENGTH} characters`),
  name: z.string().trim().min(1).max(100).regex(/^[^,]+$/, "no commas (names are listed in judges=a,b)").refine((n) => n !== "all" && n !== "none", "all and none are reserved"),
  base_url: z.url({ protocol: /^https?$/ }).max(2000),
  model: z.string().min(1).max(200),
  api_key: z.string().min(1).max(1000).nullable().optional(),
  families: z.array(z.enum(FAMILIES)).min(1),
  event_types: z.array(z.enum(EVENT_TYPES)).default([]),
  prompts: judgePrompts.default({}),
  temperature: z.number().min(0).max(2).default(0),
  max_tokens: z.number().int().min(16).max(8192).default(200),
  json_schema: z.boolean().default(true),
});
export type JudgeInput = z.infer<typeof judgeInput>;

export const judgePatch = judgeInput.omit({ project: true }).partial();

/** A judge as the API returns it: never the key, only whether one is set. */
export interface ApiJudge {
  id: number;
  project: string;
  name: string;
  base_url: string;
  model: string;
  has_api_key: boolean;
  families: string[];
  event_types: string[];
  prompts: Record<string, string>;
  temperature: number;
  max_tokens: number;
  json_schema: boolean;
  created_at: string;
}

/** A run over traces chosen by a filter, or over a queue's items. */
export const runInput = z.strictObject({
  filter: z.strictObject({
    system: z.string().max(200).optional(),
    task_id: z.string().max(200).optional(),
    group_id: z.string().max(200).optional(),
    trace_ids: z.array(z.string().max(500)).max(100_000).optional(),
  }).optional(),
  queue_id: z.number().int().positive().optional(),
  concurrency: z.number().int().min(1).max(64).default(4),
  token_budget: z.number().int().positive().nullable().default(null),
  time_budget_seconds: z.number().int().positive().nullable().default(null),
  context_tokens: z.number().int().min(256).max(100_000).default(4000),
}).refine((r) => (r.filter === undefined) !== (r.queue_id === undefined), { message: "give either filter or queue_id" });
export type RunInput = z.infer<typeof runInput>;
