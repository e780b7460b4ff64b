/**
 * `npm run frameworks:gateway`: the OpenAI Agents SDK (scripts/frameworks/openai-agents,
 * its own node_modules: `npm ci` there first) run unchanged against the recording
 * gateway, pointed at it by OPENAI_BASE_URL alone, over the Responses API and the
 * chat-completions API, whole and streamed, with a scripted upstream on 127.0.0.1.
 * Each run is flushed into its trace; the upstream's log (what it was sent, what it
 * answered) and the calls Baton stored are written to
 * lib/gateway/fixtures/openai-agents-gateway.json, which
 * lib/server/gateway/frameworks.int.test.ts replays through the gateway.
 * Uses its own database (bench's embedded PostgreSQL, or DATABASE_URL's server).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { benchDatabase } from "./bench/db";
import { startScriptedOpenAi } from "./lib/scripted-openai";
import { supportAnswer } from "./lib/support-script";

const FIXTURE = "lib/gateway/fixtures/openai-agents-gateway.json";
const MODES = [
  { api: "responses", stream: false },
  { api: "responses", stream: true },
  { api: "chat_completions", stream: false },
  { api: "chat_completions", stream: true },
] as const;

function runFramework(baseUrl: string, api: string, stream: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/frameworks/openai-agents/gateway.mjs", api, ...(stream ? ["--stream"] : [])], {
      env: { ...process.env, OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "open-mode-needs-no-key" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`the framework exited with ${code}`))));
  });
}

async function main() {
  const db = await benchDatabase("baton_gateway_frameworks");
  process.env.DATABASE_URL = db.url;
  const { putUpstream } = await import("@/lib/server/gateway/upstreams");
  const { flushRuns } = await import("@/lib/server/gateway/runs");
  const { recorderSettled } = await import("@/lib/server/gateway/recorder");
  const { loadCalls } = await import("@/lib/server/calls/store");
  const { pool } = await import("@/lib/server/db/client");
  const { startGatewayServer } = await import("./lib/gateway-server");
  const upstream = await startScriptedOpenAi(supportAnswer);
  await putUpstream("default", { base_url: upstream.url, api_key: null, max_reply_bytes: 16 << 20, timeout_ms: 60_000, request_token_ids: false, request_logprobs: false, tokenizer: null });
  const gateway = await startGatewayServer();
  const runs = [];
  for (const mode of MODES) {
    const runKey = `openai-agents-${mode.api}${mode.stream ? "-stream" : ""}`;
    const from = upstream.requests.length;
    const output = await runFramework(`${gateway.url}/api/llm/run/${runKey}/v1`, mode.api, mode.stream);
    await recorderSettled();
    const [outcome] = await flushRuns("default", runKey);
    if (outcome?.status !== "stored") throw new Error(`${runKey}: ${JSON.stringify(outcome)}`);
    const { rows } = await pool().query<{ id: number }>("SELECT id FROM traces WHERE trace_id = $1", [outcome.trace_id]);
    const calls = await loadCalls(rows[0]!.id);
    const events = await pool().query<{ event_id: string; type: string; agent: string }>("SELECT event_id, type, agent FROM events WHERE trace_id = $1 ORDER BY seq", [rows[0]!.id]);
    const log = upstream.requests.slice(from).map((r) => ({ path: r.path, body: r.body, reply: r.reply, events: r.events }));
    console.log(`${runKey}: ${log.length} upstream requests, ${calls.length} calls stored, ${new Set(calls.map((c) => c.agent)).size} lanes; framework said ${output}`);
    runs.push({ run_key: runKey, api: mode.api, stream: mode.stream, framework_output: JSON.parse(output) as unknown, upstream: log, calls, events: events.rows });
  }
  writeFileSync(FIXTURE, `${JSON.stringify({ framework: "@openai/agents 0.20.0 (openai 7.59.0), unchanged, OPENAI_BASE_URL only", runs }, null, 1)}\n`);
  console.log(`wrote ${FIXTURE}`);
  await gateway.close();
  await upstream.close();
  await pool().end();
  await db.close();
}

void main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
