/**
 * `npm run frameworks:gateway`: agent frameworks run unchanged against the recording
 * gateway, pointed at it by their base URL alone, with a scripted upstream on
 * 127.0.0.1 (each framework folder has its own node_modules: `npm ci` there first):
 * - the OpenAI Agents SDK (scripts/frameworks/openai-agents/gateway.mjs) over the
 *   Responses API and the chat-completions API, whole and streamed;
 * - the Vercel AI SDK with its OpenAI provider (scripts/frameworks/ai-sdk-6/gateway.mjs),
 *   agents as tools, over the Responses and chat-completions APIs, whole and streamed;
 * - a LangGraph.js supervisor (scripts/frameworks/langgraph/gateway.mjs) behind
 *   ChatOpenAI (whole replies: streamed, LangChain fetches tiktoken ranks and offline never ends);
 * - Mastra agents (scripts/frameworks/mastra/gateway.mjs, on Node 22) whose models are
 *   @ai-sdk/openai providers, over both APIs, generate and stream.
 * Each run is flushed into its trace; the upstream's log (what it was sent, what it
 * answered) and the calls Baton stored are written to
 * lib/gateway/fixtures/<framework>-gateway.json, which
 * lib/server/gateway/frameworks.int.test.ts replays through the gateway.
 * Uses its own database (bench's embedded PostgreSQL, or DATABASE_URL's server).
 */
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { benchDatabase } from "./bench/db";
import { startScriptedOpenAi, type ScriptedAnswer } from "./lib/scripted-openai";
import { mastraAnswer, orchestratorAnswer, populationAnswer, supportAnswer } from "./lib/support-script";

interface Framework {
  name: string;
  label: string;
  script: string;
  /** Node 22 instead of Baton's own Node (scripts/frameworks/node22.sh) */
  node22?: boolean;
  /** the agent's name rides in the x-baton-agent header (not in the body the upstream sees): the fixture says so, and its replay sends it */
  agentHeader?: boolean;
  answer: (body: Record<string, unknown>) => ScriptedAnswer;
  modes: { api: "responses" | "chat_completions"; stream: boolean; args: string[] }[];
}

const FRAMEWORKS: Framework[] = [
  {
    name: "openai-agents",
    label: "@openai/agents 0.20.0 (openai 7.59.0), unchanged, OPENAI_BASE_URL only",
    script: "scripts/frameworks/openai-agents/gateway.mjs",
    answer: supportAnswer,
    modes: [
      { api: "responses", stream: false, args: ["responses"] },
      { api: "responses", stream: true, args: ["responses", "--stream"] },
      { api: "chat_completions", stream: false, args: ["chat_completions"] },
      { api: "chat_completions", stream: true, args: ["chat_completions", "--stream"] },
    ],
  },
  {
    name: "ai-sdk",
    label: "ai 6.0.325 + @ai-sdk/openai 3.0.141 (generateText / streamText), unchanged, the provider's baseURL only",
    script: "scripts/frameworks/ai-sdk-6/gateway.mjs",
    answer: orchestratorAnswer,
    modes: [
      { api: "responses", stream: false, args: ["responses"] },
      { api: "responses", stream: true, args: ["responses", "--stream"] },
      { api: "chat_completions", stream: false, args: ["chat_completions"] },
      { api: "chat_completions", stream: true, args: ["chat_completions", "--stream"] },
    ],
  },
  {
    name: "langgraph",
    label: "@langchain/langgraph 1.7.3 + @langchain/langgraph-supervisor 1.1.3 + @langchain/openai 1.6.0, unchanged, ChatOpenAI's baseURL only",
    script: "scripts/frameworks/langgraph/gateway.mjs",
    answer: populationAnswer,
    // streamed, the run does not finish offline even without the gateway (ChatOpenAI fetches tiktoken ranks from the internet)
    modes: [{ api: "chat_completions", stream: false, args: [] }],
  },
  {
    name: "mastra",
    label: "@mastra/core 1.71.0 + @ai-sdk/openai 3.0.141 on Node 22 (a supervisor with two sub-agents; generate and stream), unchanged, the provider's baseURL only",
    script: "scripts/frameworks/mastra/gateway.mjs",
    node22: true,
    agentHeader: true,
    answer: mastraAnswer,
    modes: [
      { api: "responses", stream: false, args: ["responses"] },
      { api: "responses", stream: true, args: ["responses", "--stream"] },
      { api: "chat_completions", stream: false, args: ["chat_completions"] },
      { api: "chat_completions", stream: true, args: ["chat_completions", "--stream"] },
    ],
  },
];

function runFramework(framework: Framework, baseUrl: string, args: string[]): Promise<string> {
  const { script } = framework;
  const node = framework.node22 ? `${execFileSync("bash", ["scripts/frameworks/node22.sh"], { encoding: "utf8" }).trim()}/node` : process.execPath;
  return new Promise((resolve, reject) => {
    const child = spawn(node, [script, ...args], {
      env: { ...process.env, OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "open-mode-needs-no-key" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`${script} exited with ${code}`))));
  });
}

async function main() {
  const only = process.argv.slice(2);
  const db = await benchDatabase("baton_gateway_frameworks");
  process.env.DATABASE_URL = db.url;
  process.env.BATON_ALLOW_LOOPBACK ??= "1"; // the scripted model server is on 127.0.0.1
  const { putUpstream } = await import("@/lib/server/gateway/upstreams");
  const { flushRuns } = await import("@/lib/server/gateway/runs");
  const { recorderSettled } = await import("@/lib/server/gateway/recorder");
  const { loadCalls } = await import("@/lib/server/calls/store");
  const { pool } = await import("@/lib/server/db/client");
  const { startGatewayServer } = await import("./lib/gateway-server");
  let answer: Framework["answer"] = supportAnswer;
  const upstream = await startScriptedOpenAi((body) => answer(body));
  await putUpstream("default", { base_url: upstream.url, api_key: null, max_reply_bytes: 16 << 20, timeout_ms: 60_000, request_token_ids: false, request_logprobs: false, tokenizer: null });
  const gateway = await startGatewayServer();
  for (const framework of FRAMEWORKS.filter((f) => only.length === 0 || only.includes(f.name))) {
    answer = framework.answer;
    const runs = [];
    for (const mode of framework.modes) {
      const runKey = `${framework.name}-${mode.api}${mode.stream ? "-stream" : ""}`;
      const from = upstream.requests.length;
      const output = await runFramework(framework, `${gateway.url}/api/llm/run/${runKey}/v1`, mode.args);
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
    const fixture = `lib/gateway/fixtures/${framework.name}-gateway.json`;
    writeFileSync(fixture, `${JSON.stringify({ framework: framework.label, ...(framework.agentHeader && { agent_header: true }), runs }, null, 1)}\n`);
    console.log(`wrote ${fixture}`);
  }
  await gateway.close();
  await upstream.close();
  await pool().end();
  await db.close();
}

void main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
