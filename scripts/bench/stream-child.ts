// Child of bench:ingest: ingests one JSONL file with the CLI's file path and prints its peak memory.
import { closeDatabase } from "@/lib/server/db/client";
import { ingestFile } from "@/lib/server/ingest/file-ingest";
import { fmt } from "./db";

async function main() {
  const file = process.argv[2]!;
  // Sampled, not getrusage's maxRSS: on Linux that survives exec and would report the parent's peak at fork time.
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const outcome = await ingestFile(file, { upsert: true });
  const seconds = (performance.now() - started) / 1000;
  await closeDatabase();
  const events = outcome.traces.reduce((s, t) => s + t.events, 0);
  clearInterval(sampler);
  const peakMb = Math.max(peak, process.memoryUsage().rss) / 1048576;
  console.log(`${outcome.ok ? "ok" : "FAILED"}: ${fmt(outcome.traces.length)} traces, ${fmt(events)} events in ${fmt(seconds, 1)} s (${fmt(events / seconds)} events/s)`);
  if (!outcome.ok) console.log(outcome.problems.slice(0, 5));
  console.log(`peak memory (RSS sampled every 20 ms) while streaming: ${fmt(peakMb)} MB (target < 500 MB)`);
}

void main();
