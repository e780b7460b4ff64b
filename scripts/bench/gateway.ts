/**
 * `npm run bench:gateway [-- --calls 300 --rounds 10 --chunks 50 --chunk-delay 1]`
 *
 * Added latency of the recording gateway: streamed chat completions from a
 * scripted upstream on 127.0.0.1 (`chunks` chunks, `chunk-delay` ms apart),
 * called directly and through the gateway (its route handlers behind
 * node:http in a child process, recording into its own database),
 * alternated in one run: at 1 stream (`calls` calls each way) and at 50
 * concurrent streams (`rounds` rounds of 50 each way). Prints time to first
 * token (the first content chunk) and whole call, p50 and p99, each way and
 * the difference; then checks that every call through the gateway was
 * recorded (zero lost records). `--in-process`: the gateway in the bench's
 * own process instead (no second process to schedule: its own cost only).
 * BATON_CPU_PROF=<dir>: a V8 CPU profile of the gateway process there.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import pg from "pg";
import { startScriptedOpenAi } from "../lib/scripted-openai";
import { cpuSnapshot } from "./cpu";
import { benchDatabase, fmt } from "./db";

const { values } = parseArgs({
  options: { "in-process": { type: "boolean", default: false }, calls: { type: "string", default: "300" }, rounds: { type: "string", default: "10" }, chunks: { type: "string", default: "50" }, "chunk-delay": { type: "string", default: "1" } },
});
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);
const CHUNKS = Number(values.chunks);
const CHUNK_DELAY = Number(values["chunk-delay"]);
const CONCURRENT = 50;

interface Timing {
  ttft: number;
  total: number;
}

async function streamOnce(url: string, runKey: string | null): Promise<Timing> {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(runKey !== null && { "x-baton-run": runKey }) },
    body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "system", content: "You are the bench." }, { role: "user", content: "Tell me something long." }] }),
  });
  if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let ttft: number | null = null;
  const reader = response.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    // the first chunk that carries text (the first event only opens the message)
    if (ttft === null && /"content":"[^"]/.test(decoder.decode(chunk.value, { stream: true }))) ttft = performance.now() - started;
  }
  return { ttft: ttft ?? Number.NaN, total: performance.now() - started };
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function startGateway(env: Record<string, string>): Promise<{ child: ChildProcess | null; url: string }> {
  if (values["in-process"]) {
    Object.assign(process.env, env);
    const { putUpstream } = await import("@/lib/server/gateway/upstreams");
    const { startGatewayServer } = await import("../lib/gateway-server");
    await putUpstream("default", { base_url: env.UPSTREAM_URL!, api_key: "sk-bench", max_reply_bytes: 16 << 20, timeout_ms: 60_000, request_token_ids: false, request_logprobs: false, tokenizer: null });
    return { child: null, url: (await startGatewayServer()).url };
  }
  const profile = process.env.BATON_CPU_PROF ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BATON_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, "--import", "tsx", "--conditions=react-server", "scripts/bench/gateway/child.ts"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", (line) => resolve({ child, url: (JSON.parse(line) as { url: string }).url }));
    child.once("exit", (code) => reject(new Error(`the gateway process exited with ${code}`)));
  });
}

async function main() {
  process.env.BATON_ALLOW_LOOPBACK ??= "1"; // the scripted model server is on 127.0.0.1 (the child inherits it)
  const db = await benchDatabase("baton_gateway_bench");
  const text = "x".repeat(4 * CHUNKS);
  const upstream = await startScriptedOpenAi(() => ({ text, chunkChars: 4, chunkDelayMs: CHUNK_DELAY }));
  const { child, url } = await startGateway({ DATABASE_URL: db.url, UPSTREAM_URL: upstream.url, BATON_GATEWAY_IDLE_S: "3600" });
  const direct = `${upstream.url}/chat/completions`;
  const gateway = `${url}/api/llm/v1/chat/completions`;
  let gatewayCalls = 0;
  const ways = { direct: (key: string) => streamOnce(direct, key), gateway: (key: string) => (gatewayCalls++, streamOnce(gateway, key)) };
  // warm both paths (connections, JIT, the upstream's cache of the project)
  for (let i = 0; i < 20; i++) for (const way of Object.values(ways)) await way("warm");

  const rows: string[][] = [];
  const cpuCosts: string[] = [];
  for (const [label, run] of [
    ["1 stream", async (way: keyof typeof ways) => [await ways[way]("bench-1")]] as const,
    [`${CONCURRENT} streams`, (way: keyof typeof ways) => Promise.all(Array.from({ length: CONCURRENT }, (_, i) => ways[way](`bench-50-${i % 5}`)))] as const,
  ]) {
    const samples: Record<keyof typeof ways, Timing[]> = { direct: [], gateway: [] };
    const repeats = label === "1 stream" ? CALLS : ROUNDS;
    const cpuBefore = child === null ? null : cpuSnapshot(child.pid);
    for (let r = 0; r < repeats; r++) for (const way of ["direct", "gateway"] as const) samples[way].push(...(await run(way)));
    // the gateway process serves only the gateway's calls: its CPU time over them is what one call costs it (whatever else the machine runs)
    if (cpuBefore !== null) cpuCosts.push(`${label}: ${fmt((cpuSnapshot(child!.pid).app - cpuBefore.app) / samples.gateway.length, 2)} ms of the gateway process's CPU per call (${fmt((1000 * (cpuSnapshot(child!.pid).app - cpuBefore.app)) / samples.gateway.length / (CHUNKS + 3), 0)} µs per chunk)`);
    for (const metric of ["ttft", "total"] as const) {
      const stat = (way: keyof typeof ways, q: number) => quantile(samples[way].map((s) => s[metric]), q);
      rows.push([label, metric === "ttft" ? "time to first token" : "whole call", `${samples.direct.length}`,
        ...[0.5, 0.99].flatMap((q) => [fmt(stat("direct", q), 2), fmt(stat("gateway", q), 2), fmt(stat("gateway", q) - stat("direct", q), 2)])]);
    }
  }

  // every call through the gateway recorded: the rows in the database, and the process's own counters
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  let stored = 0;
  for (let tries = 0; tries < 100; tries++) {
    stored = Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM gateway_calls")).rows[0]!.n);
    if (stored >= gatewayCalls) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const status = (await (await fetch(`${url}/api/status`)).json()) as { gateway: { calls: number; recorded: number; lost: number } };
  await client.end();
  child?.kill("SIGTERM");
  // in process, the gateway's own connections must close before the embedded server stops
  if (child === null) {
    (await import("@/lib/server/gateway/sweeper")).stopGatewaySweeper();
    await (await import("@/lib/server/db/client")).closeDatabase();
  }
  await upstream.close();
  await db.close();

  console.log(`\nstreamed chat completions, ${CHUNKS} chunks ${CHUNK_DELAY} ms apart; milliseconds; direct vs through the gateway (${values["in-process"] ? "in the bench's process" : "its own process"}), alternated in one run\n`);
  console.log("| load | measure | calls each way | p50 direct | p50 gateway | p50 added | p99 direct | p99 gateway | p99 added |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  for (const line of cpuCosts) console.log(`\n${line}`);
  const lost = gatewayCalls - stored;
  console.log(`\ncalls through the gateway: ${gatewayCalls}; recorded in the database: ${stored}; lost: ${lost} (the gateway's counters: calls ${status.gateway.calls}, recorded ${status.gateway.recorded}, lost ${status.gateway.lost})`);
  process.exit(lost !== 0 || status.gateway.lost !== 0 ? 1 : 0);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
