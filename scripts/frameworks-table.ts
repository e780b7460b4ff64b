/**
 * The framework x {agents, delegation, tools, messages, final answer,
 * request kept} table, measured: every fixture (captured runs listed in
 * truth.json, hand-made Python runs) through the OTLP mapping, each column
 * checked against the run's ground truth. `npm run frameworks:table`.
 */
import { readFileSync } from "node:fs";
import { readOtlpJson } from "../lib/adapters/otlp-json";
import { PYTHON_RUNS, type HandMadeRun } from "../lib/adapters/otlp/fixtures/python";
import { otlpSpansToTrace } from "../lib/adapters/otlp/index";

const captured: HandMadeRun[] = (JSON.parse(readFileSync("scripts/frameworks/truth.json", "utf8")) as HandMadeRun["truth"][]).map((truth) => {
  const read = readOtlpJson(JSON.parse(readFileSync(`lib/adapters/otlp/fixtures/${truth.fixture}.json`, "utf8")));
  if (!read.ok) throw new Error(`${truth.fixture}: ${read.problems.join("; ")}`);
  return { truth, spans: read.spans };
});

const mark = (ok: boolean, shown: string) => `${ok ? "yes" : "NO"} (${shown})`;
const same = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

console.log("| framework | agents | delegation | tools | messages | final answer | request kept |\n|---|---|---|---|---|---|---|");
let failures = 0;
for (const { truth, spans } of [...captured, ...PYTHON_RUNS]) {
  const trace = otlpSpansToTrace(spans);
  const lanes = [...new Set(trace.events.map((e) => e.agent))];
  const delegations = [...new Set(trace.events.filter((e) => e.type === "spawn").map((e) => `${e.agent}->${e.to}`))];
  const results = trace.events.filter((e) => e.type === "tool_result" && e.status !== "error");
  const linked = truth.tools.filter((t) => results.some((r) => r.tool_call_id === t.id && trace.edges.some((x) => x.dst === r.id && x.type === "return")));
  const messages = trace.events.filter((e) => e.type === "message");
  const addressed = messages.every((m, i) => (i === 0 ? m.from === "user" : typeof m.to === "string" && lanes.includes(m.to) && m.to !== m.from));
  const aggregates = trace.events.filter((e) => e.type === "aggregate");
  const first = [...trace.events].sort((a, b) => a.t - b.t)[0];
  const row = [
    mark(same(lanes, truth.lanes), `${lanes.length} lanes`),
    mark(same(delegations, truth.delegations), delegations.join(", ") || "none"),
    mark(linked.length === truth.tools.length && results.length === truth.tools.length, `${linked.length}/${truth.tools.length} linked to results`),
    mark(addressed, `${messages.length}: the request${messages.length > 1 ? ` + ${messages.length - 1} addressed` : ""}`),
    mark(aggregates.length === 1 && aggregates[0]!.content === truth.answer, "terminal aggregate, as text"),
    mark(first?.content === truth.request, "first event"),
  ];
  failures += row.filter((c) => c.startsWith("NO")).length;
  console.log(`| ${truth.fixture} | ${row.join(" | ")} |`);
}
if (failures > 0) process.exitCode = 1;
