import { z } from "zod";
import { judgesParam } from "@/lib/judges/selection";
import { familyWeightsSchema, weightPresetSchema } from "@/lib/rewards/presets";
import { TOPOLOGIES } from "@/lib/trace/types";
import { defineEndpoint } from "../contract";
import { gatewayCounters } from "../gateway";
import { filterText } from "../params";

/** What spans the workspace: weight presets, aggregated metrics, and the answering process's status (docs/api.md). */

const preset = z.object({ name: z.string(), weights: familyWeightsSchema, token_budget: z.number(), builtin: z.boolean() });

export const listPresets = defineEndpoint({
  method: "GET",
  path: "/api/presets",
  output: z.object({ presets: z.array(preset) }),
  errors: [],
});

export const createPreset = defineEndpoint({
  method: "POST",
  path: "/api/presets",
  body: weightPresetSchema,
  output: z.object({ preset }),
  errors: ["conflict"],
});

const text = filterText.optional();

export const aggregateMetrics = defineEndpoint({
  method: "GET",
  path: "/api/metrics",
  query: z.strictObject({ project: text, system: text, task_id: text, group_id: text, topology: z.enum(TOPOLOGIES).optional(), judges: judgesParam }),
  /** E1-E4 and stop diagnostics aggregated over the matching traces (docs/metrics.md) */
  output: z.object({ traces: z.number() }),
  errors: [],
});

export const status = defineEndpoint({
  method: "GET",
  path: "/api/status",
  output: z.object({
    process: z.object({ pid: z.number(), index: z.number(), uptime_s: z.number() }),
    databases: z.array(z.object({ name: z.string(), role: z.enum(["primary", "replica"]), served: z.number() })),
    gateway: gatewayCounters,
  }),
  errors: [],
});
