/**
 * `npm run bench:compute [-- --sizes 1000,10000,100000 --traces 100000 --batch 1000]`
 *
 * 1. Compute (scripts/bench/compute/core.ts): all metrics plus CCP credit
 *    under each built-in preset on traces of each size and three shapes
 *    (sub-agent fan-out/fan-in, one long causal chain, a message mesh):
 *    median time, events/s, time ratio between the two largest sizes
 *    (linearity), retained and peak bytes per event, against JSON.parse of
 *    the trace and a plain BFS over its edges in the same process.
 *    Target: 100k events in under 1 s, memory linear in events.
 * 2. Aggregate (scripts/bench/compute/aggregate.ts): stores --traces small
 *    traces through the ingest path and times `GET /api/metrics` with and
 *    without filters. Target: under 2 s over 100,000 traces. --traces 0 skips it.
 *
 * Memory probes need `global.gc`: without it the script re-executes itself
 * under `node --expose-gc` (which changes no GC behaviour, only exposes it).
 */
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { aggregateBench } from "./compute/aggregate";
import { computeBench } from "./compute/core";
import { fmt } from "./db";

function reexecWithGc(): never {
  const args = ["--expose-gc", "--import", "tsx", "--conditions=react-server", process.argv[1]!, ...process.argv.slice(2)];
  const child = spawnSync(process.execPath, args, { stdio: "inherit" });
  process.exit(child.status ?? 1);
}

async function main(): Promise<void> {
  if (typeof (globalThis as { gc?: unknown }).gc !== "function") reexecWithGc();
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "1000,10000,100000" },
      traces: { type: "string", default: "100000" },
      batch: { type: "string", default: "1000" },
    },
  });
  const sizes = values.sizes.split(",").map(Number);
  const traces = Number(values.traces);
  const batch = Number(values.batch);
  if (sizes.some((n) => !Number.isInteger(n) || n < 8) || !Number.isInteger(traces) || traces < 0 || !(batch >= 1)) {
    throw new Error("--sizes needs integers >= 8, --traces an integer >= 0, --batch >= 1");
  }
  const started = performance.now();
  const load = () => `load average ${fmt(loadavg()[0] ?? 0, 2)}`;
  console.log(`bench:compute — Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? "unknown CPU"}, ${load()} (other work on the machine skews timings)`);
  computeBench(sizes);
  if (traces > 0) await aggregateBench(traces, batch);
  console.log(`\nbench:compute done in ${fmt((performance.now() - started) / 1000, 1)} s, ${load()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
