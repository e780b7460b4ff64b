// The live harness: runs each framework unchanged (its capture
// script, mock model, real OTLP exporter) and posts its export requests to
// a running Baton, flushes, reads the stored trace back over the HTTP API
// and checks it against the run's ground truth (truth.json): agent lanes,
// delegations, tool calls with results, the request and the final answer.
// An upstream change in a framework's spans shows up here.
// Usage: node scripts/frameworks/live.mjs [baton url]  (default http://127.0.0.1:$PORT or :3000)
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const baton = (process.argv[2] ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/$/, "");
const auth = process.env.BATON_API_KEY ?? process.env.BATON_INGEST_TOKEN;
const headers = { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${auth}` } : {}) };
/** fetch without keep-alive: a framework run can outlast the server's idle socket timeout. */
const call = (url, init = {}) => fetch(url, { ...init, headers: { ...headers, connection: "close" } }).then((r) => r.json());
const truths = JSON.parse(readFileSync(join(here, "truth.json"), "utf8"));

/** The environment a framework runs in: Node 22 first on PATH for those that need it (truth.json `"node": 22`). */
function envFor(truth) {
  if (truth.node !== 22) return process.env;
  const bin = execFileSync(join(here, "node22.sh"), { encoding: "utf8" }).trim();
  return { ...process.env, PATH: `${bin}:${process.env.PATH}` };
}

const problems = [];
for (const truth of truths) {
  const folder = join(here, truth.fixture);
  const env = envFor(truth);
  if (!existsSync(join(folder, "node_modules"))) execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: folder, stdio: "inherit", env });
  const out = execFileSync("node", ["capture.mjs", "-", `${baton}/api/otel/v1/traces`], { cwd: folder, encoding: "utf8", env });
  const traceId = /trace ids: (\S+)/.exec(out)?.[1];
  const flushed = await call(`${baton}/api/otel/v1/flush`, { method: "POST", body: JSON.stringify({ trace_id: traceId }) });
  const stored = flushed.traces?.[0];
  const check = (what, ok) => {
    if (!ok) problems.push(`${truth.fixture}: ${what}`);
    return ok;
  };
  if (!check(`stored (${JSON.stringify(flushed)})`, stored?.status === "stored")) continue;
  const trace = await call(`${baton}/api/traces/${traceId}?content=1`);
  const events = trace.events;
  const lanes = [...new Set(events.map((e) => e.agent))].sort();
  check(`lanes ${lanes}`, JSON.stringify(lanes) === JSON.stringify(truth.lanes));
  const delegations = [...new Set(events.filter((e) => e.type === "spawn").map((e) => `${e.agent}->${e.to}`))].sort();
  check(`delegations ${delegations}`, JSON.stringify(delegations) === JSON.stringify(truth.delegations));
  const results = events.filter((e) => e.type === "tool_result").map((e) => `${e.tool}#${e.tool_call_id}:${e.status}`);
  check(`tool results ${results}`, JSON.stringify(results) === JSON.stringify(truth.tools.map((t) => `${t.tool}#${t.id}:ok`)));
  const first = [...events].sort((a, b) => a.t - b.t)[0];
  check("request kept", first?.content === truth.request);
  const aggregates = events.filter((e) => e.type === "aggregate");
  check("final answer", aggregates.length === 1 && aggregates[0].content === truth.answer);
  check("no errors", events.every((e) => e.status !== "error"));
  check("model calls outside E3", events.filter((e) => e.type === "message").length === 1);
  console.log(`${truth.fixture}: trace ${traceId}, ${events.length} events, checked`);
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`all ${truths.length} frameworks map faithfully on ${baton}`);
