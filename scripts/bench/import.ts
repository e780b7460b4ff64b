/**
 * `npm run bench:import [-- --data ../shared/data]`
 *
 * Imports every dataset under the data folder (format detected by content,
 * as `npm run ingest -- --format auto` does) into a fresh database and
 * prints the time per input kind and in total (target < 60 s).
 */
import { parseArgs } from "node:util";
import { closeDatabase } from "@/lib/server/db/client";
import { detectPath } from "@/lib/adapters";
import { expandInputs, ingestFormatted } from "@/lib/server/ingest/format-ingest";
import { benchDatabase, fmt } from "./db";

const { values } = parseArgs({ options: { data: { type: "string", default: "../shared/data" } } });

interface Tally {
  inputs: number;
  traces: number;
  events: number;
  edges: number;
  seconds: number;
}

async function main() {
  const db = await benchDatabase("baton_bench_import");
  process.env.DATABASE_URL = db.url;
  const inputs = await expandInputs(values.data, "auto");
  console.log(`bench:import — ${inputs.length} inputs under ${values.data}`);

  const byFormat = new Map<string, Tally>();
  let failed = 0;
  const started = performance.now();
  for (const input of inputs) {
    const t0 = performance.now();
    const format = (await detectPath(input)) ?? "baton";
    const outcome = await ingestFormatted(input, { format, upsert: false });
    const tally = byFormat.get(format) ?? { inputs: 0, traces: 0, events: 0, edges: 0, seconds: 0 };
    tally.inputs++;
    tally.seconds += (performance.now() - t0) / 1000;
    for (const trace of outcome.traces) {
      tally.traces++;
      tally.events += trace.events;
      tally.edges += trace.edges;
    }
    byFormat.set(format, tally);
    if (!outcome.ok) {
      failed++;
      console.log(`FAILED  ${input}: ${outcome.problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`).join("; ")}`);
    }
  }
  const total = (performance.now() - started) / 1000;

  console.log(`\n${"format".padEnd(10)} ${"inputs".padStart(7)} ${"traces".padStart(7)} ${"events".padStart(9)} ${"edges".padStart(9)} ${"seconds".padStart(8)}`);
  for (const [format, t] of [...byFormat].sort()) {
    console.log(`${format.padEnd(10)} ${fmt(t.inputs).padStart(7)} ${fmt(t.traces).padStart(7)} ${fmt(t.events).padStart(9)} ${fmt(t.edges).padStart(9)} ${fmt(t.seconds, 2).padStart(8)}`);
  }
  console.log(`\nimported in ${fmt(total, 1)} s (target < 60 s); ${failed} input(s) failed`);
  await closeDatabase();
  await db.close();
  if (failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
