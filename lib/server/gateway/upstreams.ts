import "server-only";
import type { GatewayUpstream, GatewayUpstreamInput, TokenizerChoice } from "@/lib/api/gateway";
import { endpointProblem } from "@/lib/judges/endpoint-rules";
import { pool } from "../db/client";
import { ApiError, notFound } from "../errors";
import { decryptSecret, encryptSecret } from "../judges/secret";
import { judgeEndpointPolicy } from "../judges/endpoint";
import { hasTokenizer } from "./tokenizers";

/**
 * A project's upstream model server (docs/gateway.md "Upstreams"). The key
 * is sealed as judges' keys are (lib/server/judges/secret.ts) and leaves
 * this module only towards the upstream itself; the address rules are the
 * judges' (lib/judges/endpoint-rules.ts, BATON_JUDGE_HOSTS).
 */

interface UpstreamRow {
  project: string;
  project_id: number;
  base_url: string;
  api_key_cipher: string | null;
  max_reply_bytes: number;
  timeout_ms: number;
  request_token_ids: boolean;
  request_logprobs: boolean;
  tokenizer: TokenizerChoice | null;
  updated_at: Date;
}

/** What the forwarder needs: the key unsealed. */
export interface LiveUpstream {
  projectId: number;
  baseUrl: string;
  apiKey: string | null;
  maxReplyBytes: number;
  timeoutMs: number;
  requestTokenIds: boolean;
  requestLogprobs: boolean;
  tokenizer: TokenizerChoice | null;
}

const SELECT = `SELECT p.name AS project, p.id AS project_id, u.base_url, u.api_key_cipher, u.max_reply_bytes, u.timeout_ms,
    u.request_token_ids, u.request_logprobs, u.tokenizer, u.updated_at
  FROM projects p LEFT JOIN gateway_upstreams u ON u.project_id = p.id WHERE p.name = $1`;

const toApi = (r: UpstreamRow): GatewayUpstream => ({
  project: r.project, base_url: r.base_url, has_api_key: r.api_key_cipher !== null, max_reply_bytes: r.max_reply_bytes,
  timeout_ms: r.timeout_ms, request_token_ids: r.request_token_ids, request_logprobs: r.request_logprobs, tokenizer: r.tokenizer, updated_at: r.updated_at.toISOString(),
});

async function rowOf(project: string): Promise<UpstreamRow | null> {
  const { rows } = await pool().query<UpstreamRow>({ name: "gateway.upstream", text: SELECT, values: [project] });
  const row = rows[0];
  if (!row) throw notFound(`project "${project}"`);
  return row.base_url === null ? null : row;
}

/** Every project's upstream (the admin page), by project name. */
export async function listUpstreams(): Promise<GatewayUpstream[]> {
  const { rows } = await pool().query<UpstreamRow>(
    `SELECT p.name AS project, p.id AS project_id, u.base_url, u.api_key_cipher, u.max_reply_bytes, u.timeout_ms, u.request_token_ids, u.request_logprobs, u.tokenizer, u.updated_at
     FROM gateway_upstreams u JOIN projects p ON p.id = u.project_id ORDER BY p.name`,
  );
  return rows.map(toApi);
}

export async function getUpstream(project: string): Promise<GatewayUpstream | null> {
  const row = await rowOf(project);
  return row === null ? null : toApi(row);
}

/** Writes the upstream. A changed base_url drops the stored key unless the same request brings one (as for judges). */
export async function putUpstream(project: string, input: GatewayUpstreamInput): Promise<GatewayUpstream> {
  const problem = endpointProblem(input.base_url, judgeEndpointPolicy());
  if (problem !== null) throw new ApiError(400, "invalid_input", `base_url refused: ${problem}`, [{ path: "$.base_url", message: problem }]);
  // a project is made by its first trace, or here: calls recorded through the gateway are its first traces
  await pool().query("INSERT INTO projects (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", [project]);
  const { rows: projects } = await pool().query<{ id: number }>("SELECT id FROM projects WHERE name = $1", [project]);
  if (!projects[0]) throw notFound(`project "${project}"`);
  if (input.tokenizer === "project" && !(await hasTokenizer(projects[0].id))) {
    throw new ApiError(400, "invalid_input", "the project has no tokenizer", [{ path: "$.tokenizer", message: `"project" needs the project's tokenizer: upload it first (PUT /api/projects/${project}/tokenizer)` }]);
  }
  const sealed = input.api_key === undefined || input.api_key === null ? input.api_key ?? null : encryptSecret(input.api_key);
  await pool().query(
    `INSERT INTO gateway_upstreams (project_id, base_url, api_key_cipher, max_reply_bytes, timeout_ms, request_token_ids, request_logprobs, tokenizer, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $9, now())
     ON CONFLICT (project_id) DO UPDATE SET base_url = EXCLUDED.base_url,
       api_key_cipher = CASE WHEN $8 THEN EXCLUDED.api_key_cipher
                             WHEN gateway_upstreams.base_url <> EXCLUDED.base_url THEN NULL ELSE gateway_upstreams.api_key_cipher END,
       max_reply_bytes = EXCLUDED.max_reply_bytes, timeout_ms = EXCLUDED.timeout_ms,
       request_token_ids = EXCLUDED.request_token_ids, request_logprobs = EXCLUDED.request_logprobs, tokenizer = EXCLUDED.tokenizer, updated_at = now()`,
    [projects[0].id, input.base_url, sealed, input.max_reply_bytes, input.timeout_ms, input.request_token_ids, input.request_logprobs, input.api_key !== undefined, input.tokenizer],
  );
  forget(project);
  return (await getUpstream(project))!;
}

export async function deleteUpstream(project: string): Promise<void> {
  await pool().query("DELETE FROM gateway_upstreams u USING projects p WHERE u.project_id = p.id AND p.name = $1", [project]);
  forget(project);
}

/**
 * The upstream a call goes to, read at most once a second per project and
 * process (every call asks; a change shows within a second, at once in the
 * process that made it).
 */
const CACHE_MS = 1000;
const cache = new Map<string, { at: number; upstream: Promise<LiveUpstream | null> }>();

function forget(project: string): void {
  cache.delete(project);
}

export function liveUpstream(project: string, now = Date.now()): Promise<LiveUpstream | null> {
  const hit = cache.get(project);
  if (hit && now - hit.at < CACHE_MS) return hit.upstream;
  const upstream = rowOf(project).then((r) =>
    r === null ? null : {
      projectId: r.project_id, baseUrl: r.base_url, apiKey: r.api_key_cipher === null ? null : decryptSecret(r.api_key_cipher),
      maxReplyBytes: r.max_reply_bytes, timeoutMs: r.timeout_ms, requestTokenIds: r.request_token_ids, requestLogprobs: r.request_logprobs, tokenizer: r.tokenizer,
    },
  );
  upstream.catch(() => forget(project));
  cache.set(project, { at: now, upstream });
  return upstream;
}
