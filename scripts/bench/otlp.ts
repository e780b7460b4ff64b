/**
 * `npm run bench:otlp [-- --spans 2000 --repeats 5]`
 *
 * The OTLP mapping of one agent's run of `spans` tool calls, exported whole
 * (the baseline) and as a partial export where every tool's parent is missing
 * (each kept under a stand-in placed by time), alternated in one process;
 * prints the median milliseconds of each and their ratio.
 */
import { parseArgs } from "node:util";
import { span } from "@/lib/adapters/otlp-fixtures";
import type { OtlpSpan } from "@/lib/adapters/otlp-span";
import { otlpSpansToTrace } from "@/lib/adapters/otlp/index";

const { values } = parseArgs({ options: { spans: { type: "string", default: "2000" }, repeats: { type: "string", default: "5" } } });
const n = Number(values.spans);
const repeats = Number(values.repeats);

function run(orphaned: boolean): OtlpSpan[] {
  const root = span({ id: "root", name: "invoke_agent worker", start: 0, end: n + 1, attrs: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "worker" } });
  const tools = Array.from({ length: n }, (_, i) =>
    span({ id: `t${i}`, parent: orphaned ? `lost${i}` : "root", name: "execute_tool lookup", start: i + 0.1, end: i + 0.5, attrs: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup", "gen_ai.tool.call.id": `call_${i}` } }),
  );
  return [root, ...tools];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function main() {
  const inputs = { whole: run(false), partial: run(true) };
  const times: Record<keyof typeof inputs, number[]> = { whole: [], partial: [] };
  otlpSpansToTrace(inputs.whole);
  for (let r = 0; r < repeats; r++) {
    for (const key of ["whole", "partial"] as const) {
      const t0 = performance.now();
      const trace = otlpSpansToTrace(inputs[key]);
      times[key].push(performance.now() - t0);
      if (trace.events.length !== 2 * n + 1) throw new Error(`${key}: ${trace.events.length} events, expected ${2 * n + 1}`);
    }
  }
  const [whole, partial] = [median(times.whole), median(times.partial)];
  console.log(`bench:otlp — ${n} tool spans, ${repeats} alternated repeats`);
  console.log(`whole export          p50 ${whole.toFixed(0)} ms`);
  console.log(`every parent missing  p50 ${partial.toFixed(0)} ms  (${(partial / whole).toFixed(2)}x the whole export)`);
}

main();
