/**
 * `npm run bench:ingest [-- --traces 1000 --events 1000 --stream-mb 1024]`
 *
 * 1. Ingests traces x events generated events through the API's code path
 *    (JSON text -> parse -> validate -> prepare + compute -> store in one
 *    transaction per request of 100 traces), then loads the very same rows
 *    into the same (emptied) tables with raw COPY, and prints events/s of
 *    both and their ratio.
 * 2. Streams a JSONL file of about --stream-mb MB through the CLI's file path
 *    in a child process and prints its peak memory (RSS).
 */
import { execFileSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { syntheticTraces } from "@/lib/demo";
import { parseJsonBody } from "@/lib/ingest/parse";
import { prepareForStorage } from "@/lib/ingest/prepare";
import { validateTrace } from "@/lib/trace/validate";
import { closeDatabase, pool } from "@/lib/server/db/client";
import { copyLines } from "@/lib/server/db/copy";
import { ingestRecords } from "@/lib/server/ingest/ingest";
import { CONTENT_COLUMNS, EDGE_COLUMNS, EVENT_COLUMNS, contentLines, edgeLines, eventLines } from "@/lib/server/ingest/store";
import { benchDatabase, fmt } from "./db";

const { values } = parseArgs({
  options: {
    traces: { type: "string", default: "1000" },
    events: { type: "string", default: "1000" },
    batch: { type: "string", default: "100" },
    "stream-mb": { type: "string", default: "1024" },
  },
});
const TRACES = Number(values.traces);
const EVENTS = Number(values.events);
const BATCH = Number(values.batch);
const STREAM_MB = Number(values["stream-mb"]);

async function main() {
  const db = await benchDatabase("baton_bench");
  process.env.DATABASE_URL = db.url;
  console.log(`bench:ingest — ${fmt(TRACES)} traces x ${fmt(EVENTS)} events, ${BATCH} traces per request`);

  // Request bodies, generated before any timing.
  const bodies: string[] = [];
  let batch: unknown[] = [];
  let totalEvents = 0;
  let totalEdges = 0;
  for (const trace of syntheticTraces(TRACES, EVENTS, 7)) {
    totalEvents += trace.events.length;
    totalEdges += trace.edges.length;
    batch.push(trace);
    if (batch.length === BATCH) {
      bodies.push(JSON.stringify(batch));
      batch = [];
    }
  }
  if (batch.length > 0) bodies.push(JSON.stringify(batch));
  const megabytes = bodies.reduce((s, b) => s + b.length, 0) / 1048576;
  console.log(`generated ${fmt(totalEvents)} events, ${fmt(totalEdges)} edges (${fmt(totalEdges / totalEvents, 2)} per event), ${fmt(megabytes)} MB of JSON`);

  // 1. Baton's ingest path.
  let started = performance.now();
  for (const body of bodies) {
    const parsed = parseJsonBody(body);
    if (!parsed.ok) throw new Error("generated body did not parse");
    await ingestRecords(parsed.records, { upsert: false });
  }
  const ingestSeconds = (performance.now() - started) / 1000;

  // 2. Baseline: the same rows with raw COPY into the same tables.
  const prepared = bodies.flatMap((body) =>
    (JSON.parse(body) as unknown[]).map((raw) => {
      const result = validateTrace(raw);
      if (!result.ok) throw new Error("invalid generated trace");
      return prepareForStorage(result.trace);
    }),
  );
  await pool().query("TRUNCATE traces CASCADE");
  // trace rows get ids 1..n in order after a restart of the sequence, so the COPY lines can be built before timing
  await pool().query("ALTER SEQUENCE traces_id_seq RESTART WITH 1");
  const items = prepared.map((p) => ({ prepared: p, warnings: [], computed: {} }));
  const idMap = new Map(prepared.map((p, i) => [p.trace.trace_id, i + 1]));
  const lines = { events: [...eventLines(items, idMap)], content: [...contentLines(items, idMap)], edges: [...edgeLines(items, idMap)] };
  const client = await pool().connect();
  started = performance.now();
  await client.query("BEGIN");
  await client.query(
    `INSERT INTO traces (trace_id, project_id, task_id, rewards, costs, event_count, edge_count)
     SELECT u.trace_id, (SELECT id FROM projects WHERE name = 'default'), u.task_id, '{}'::jsonb, '{}'::jsonb, u.events, u.edges
     FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS u(trace_id, task_id, events, edges)`,
    [prepared.map((p) => p.trace.trace_id), prepared.map((p) => p.trace.task_id), prepared.map((p) => p.trace.events.length), prepared.map((p) => p.trace.edges.length)],
  );
  await copyLines(client, "events", EVENT_COLUMNS, lines.events);
  await copyLines(client, "event_content", CONTENT_COLUMNS, lines.content);
  await copyLines(client, "edges", EDGE_COLUMNS, lines.edges);
  await client.query("COMMIT");
  const copySeconds = (performance.now() - started) / 1000;
  client.release();

  const ingestRate = totalEvents / ingestSeconds;
  const copyRate = totalEvents / copySeconds;
  console.log(`\ningest path: ${fmt(ingestSeconds, 2)} s, ${fmt(ingestRate)} events/s`);
  console.log(`raw COPY:    ${fmt(copySeconds, 2)} s, ${fmt(copyRate)} events/s (same rows, same tables, lines built before timing)`);
  console.log(`ratio ingest/COPY: ${fmt(ingestRate / copyRate, 2)} (target >= 0.5)`);
  await closeDatabase();

  if (STREAM_MB > 0) await streamBench(db.url);
  await db.close();
}

/** Writes a JSONL file of about STREAM_MB MB and ingests it with the CLI's file path in a child process, reporting its peak RSS. */
async function streamBench(url: string) {
  const dir = ".baton-bench/files";
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/stream-${STREAM_MB}mb.jsonl`;
  if (!existsSync(file) || statSync(file).size < STREAM_MB * 1048576 * 0.95) await writeJsonl(file);
  const size = statSync(file).size;
  console.log(`\nstreaming ${fmt(size / 1048576)} MB of JSONL through the CLI's file path…`);
  // the same heap ceiling as `npm run ingest` (package.json): V8 would otherwise let garbage grow to gigabytes before collecting
  const out = execFileSync(process.execPath, ["--max-old-space-size=384", "--import", "tsx", "--conditions=react-server", "scripts/bench/stream-child.ts", file], {
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  process.stdout.write(out);
  rmSync(file, { force: true });
}

async function writeJsonl(file: string): Promise<void> {
  const out = createWriteStream(file);
  let written = 0;
  let i = 0;
  const target = STREAM_MB * 1048576;
  for (const trace of syntheticTraces(Number.MAX_SAFE_INTEGER, 1000, 11)) {
    const line = JSON.stringify({ ...trace, trace_id: `stream-${i++}` }) + "\n";
    if (!out.write(line)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    written += line.length;
    if (written >= target) break;
  }
  out.end();
  return new Promise((resolve) => out.on("finish", () => resolve()));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
