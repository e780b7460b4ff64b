import { z } from "zod";
import { BUILTIN_ENCODINGS } from "../gateway/tokenize";
import { MAX_ID_LENGTH } from "../trace/limits";

/**
 * The recording gateway's endpoints (docs/gateway.md), one contract each:
 * method, path, input and output, shared by the routes and any browser
 * client. The model endpoints themselves speak OpenAI's wire format, which
 * the gateway forwards as it is and does not re-validate: their contract
 * here is the path and the headers Baton reads.
 */

/** Headers Baton reads on a model call (all optional). */
export const GATEWAY_HEADERS = { run: "x-baton-run", agent: "x-baton-agent", project: "x-baton-project" } as const;

/**
 * `POST /api/llm[/project/<name>][/run/<key>]/v1/chat/completions` and
 * `.../v1/responses`: OpenAI-compatible; the reply is the upstream's.
 */
export const gatewayModelCall = {
  method: "POST",
  path: "/api/llm[/project/{project}][/run/{run_key}]/v1/{chat/completions|responses}",
} as const;

/** Where token ids come from when the server gives none: a built-in encoding, or `project`, the project's own tokenizer (below). */
export const TOKENIZER_CHOICES = [...BUILTIN_ENCODINGS, "project"] as const;
export type TokenizerChoice = (typeof TOKENIZER_CHOICES)[number];

/** Largest tokenizer upload (bytes of the JSON body): tokenizer.json files of current models run to about 30 MB. */
export const MAX_TOKENIZER_BYTES = 64 * 1024 * 1024;

/**
 * `PUT` input: the model repository's `tokenizer.json` and
 * `tokenizer_config.json` as they are (objects), and a chat template when
 * the config has none (or to replace it).
 */
export const projectTokenizerInput = z.strictObject({
  name: z.string().trim().min(1).max(200),
  tokenizer: z.record(z.string(), z.unknown()),
  tokenizer_config: z.record(z.string(), z.unknown()).default({}),
  chat_template: z.string().min(1).max(1024 * 1024).nullable().default(null),
});
export type ProjectTokenizerInput = z.infer<typeof projectTokenizerInput>;

export const projectTokenizerOutput = z.strictObject({
  project: z.string().max(MAX_ID_LENGTH),
  name: z.string(),
  vocab_size: z.number().int(),
  /** where the chat template comes from */
  chat_template: z.enum(["config", "uploaded"]),
  sha256: z.string(),
  updated_at: z.string(),
});
export type ProjectTokenizer = z.infer<typeof projectTokenizerOutput>;
export const projectTokenizerGet = z.strictObject({ tokenizer: projectTokenizerOutput.nullable() });

/** Largest reply the gateway forwards, streamed or not (bytes). */
export const MAX_REPLY_BYTES_LIMIT = 1024 * 1024 * 1024;
/** Longest a call may take (ms). */
export const MAX_TIMEOUT_MS = 3_600_000;

/** `PUT` input: the upstream as an admin writes it. `api_key`: absent keeps the stored one, null removes it. */
export const gatewayUpstreamInput = z.strictObject({
  base_url: z.url({ protocol: /^https?$/ }).max(2000),
  api_key: z.string().min(1).max(1000).nullable().optional(),
  max_reply_bytes: z.number().int().min(1024).max(MAX_REPLY_BYTES_LIMIT).default(16 * 1024 * 1024),
  timeout_ms: z.number().int().min(100).max(MAX_TIMEOUT_MS).default(600_000),
  request_token_ids: z.boolean().default(false),
  request_logprobs: z.boolean().default(false),
  /** token ids when the server gives none: a built-in OpenAI encoding (lib/gateway/tokenize.ts) or the project's uploaded tokenizer (lib/gateway/chat-template.ts) */
  tokenizer: z.enum(TOKENIZER_CHOICES).nullable().default(null),
});
export type GatewayUpstreamInput = z.infer<typeof gatewayUpstreamInput>;

/** `GET`/`PUT` output: never the key, only whether one is set. */
export const gatewayUpstreamOutput = z.strictObject({
  project: z.string().max(MAX_ID_LENGTH),
  base_url: z.string(),
  has_api_key: z.boolean(),
  max_reply_bytes: z.number().int(),
  timeout_ms: z.number().int(),
  request_token_ids: z.boolean(),
  request_logprobs: z.boolean(),
  tokenizer: z.enum(TOKENIZER_CHOICES).nullable(),
  updated_at: z.string(),
});
export type GatewayUpstream = z.infer<typeof gatewayUpstreamOutput>;

/** `GET` output when the project has no upstream. */
export const gatewayUpstreamGet = z.strictObject({ upstream: gatewayUpstreamOutput.nullable() });

/** `POST /api/llm/flush`: finalise a run now (or every receiving run of the project). */
export const gatewayFlushPath = "/api/llm/flush";
export const gatewayFlushInput = z.strictObject({
  project: z.string().min(1).max(MAX_ID_LENGTH).default("default"),
  run_key: z.string().min(1).max(MAX_ID_LENGTH).optional(),
});
export const gatewayFlushOutput = z.strictObject({
  runs: z.array(z.strictObject({
    run_key: z.string(),
    trace_id: z.string(),
    status: z.enum(["stored", "failed", "receiving"]),
    calls: z.number().int().nullable(),
    error: z.string().nullable(),
  })),
});
export type GatewayFlushOutput = z.infer<typeof gatewayFlushOutput>;

/** The gateway's counters in `GET /api/status` (this process, since it started). */
export const gatewayCounters = z.strictObject({
  calls: z.number().int(),
  recorded: z.number().int(),
  lost: z.number().int(),
  pending: z.number().int(),
  upstream_errors: z.number().int(),
});
export type GatewayCounters = z.infer<typeof gatewayCounters>;
