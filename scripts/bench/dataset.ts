/**
 * `npm run bench:dataset [-- --traces 100000 --calls 10 --db-traces 2000 --big-events 200000 --big-exports 12 --skip pipeline,parquet,snapshot,exports --reuse --profile]`
 *
 * `--reuse` keeps the database of an earlier run when it holds exactly --db-traces bench traces.
 * `--profile` writes a V8 CPU profile of each child (pipeline rows, the snapshot build) to .baton-bench-dataset/profiles.
 *
 * 1. Pipeline (one child process per row, so each peak RSS is its own):
 *    --traces traces of --calls model calls each (1,000,000 transitions by
 *    default) through the transitions form (credit computed per trace) to
 *    Parquet and, in the same run, to JSONL, written to a file; the baseline
 *    is computing the rows and writing nothing. Also Parquet at a tenth of the
 *    size: peak RSS must not grow with the dataset (`--skip parquet` leaves
 *    the export's Parquet out); and what a snapshot build does with the rows
 *    without the database (shard-file.ts: each row's JSON and hash, DuckDB's
 *    Parquet per shard of 50,000 rows).
 * 2. Snapshot through PostgreSQL: --db-traces traces stored through the
 *    ingest path, then the rows the snapshot reads from PostgreSQL and
 *    computes, nothing encoded or stored (its own baseline), and the same
 *    snapshot built three times: by buildSnapshot in one process with its
 *    heap uncapped, and the job's way (buildSnapshotElsewhere: shards built
 *    by child processes, each heap sized to the largest trace) with one
 *    child and with the default number (BATON_DATASET_PROCESSES, else the
 *    cores, at most 4): time, transitions/s, peak RSS (of the largest
 *    process) and CPU (all of them); then each build's time against the
 *    rows read from PostgreSQL and, when section 1 ran at as many
 *    transitions, against the rows computed there (target: < 2x, peak RSS
 *    < 512 MB).
 * 3. Concurrent exports: one --big-events trace stored, then --big-exports
 *    exports of its event rows at once through the export route, drained as
 *    a client would, while small requests go on (dataset/fairness.ts): all
 *    admitted at once (the baseline) against the default export slots, and
 *    the small requests alone; time, peak heap and RSS, small-request p50/p99.
 */
import { spawnSync } from "node:child_process";
import { createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { prepareTrace } from "@/lib/credit";
import { parquetChunks } from "@/lib/export/parquet";
import { formColumns } from "@/lib/export/parquet-forms";
import { transitionRows, type TransitionRow } from "@/lib/export/transitions";
import { BUILTIN_PRESETS } from "@/lib/rewards/presets";
import { fairness } from "./dataset/fairness";
import { benchTrace } from "./dataset/traces";
import { benchDatabase, fmt } from "./db";

const OUT = ".baton-bench-dataset";
/** Node flags of the measured children (`--profile`: a CPU profile each). */
const childFlags = () => [...(process.argv.includes("--profile") ? ["--cpu-prof", `--cpu-prof-dir=${path.join(OUT, "profiles")}`] : []), ...(process.env.BATON_BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? [])];

/**
 * CPU seconds used so far by the bench's PostgreSQL (the postmaster, its live
 * processes and those it reaped: the backends of exited clients), from /proc;
 * null where there is no /proc or no postmaster.pid (an outside server).
 */
function postgresCpuSeconds(dataDir: string): number | null {
  try {
    const pid = readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]!.trim();
    // fields after the command's closing parenthesis: state is field 3, utime 14, stime 15, cutime 16, cstime 17
    const fields = (stat: string) => stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const own = fields(readFileSync(`/proc/${pid}/stat`, "utf8"));
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry) || entry === pid) continue;
      try {
        const f = fields(readFileSync(`/proc/${entry}/stat`, "utf8"));
        if (f[1] === pid) ticks += Number(f[11]) + Number(f[12]);
      } catch {
        // gone meanwhile: reaped, so counted in the postmaster's cutime
      }
    }
    return ticks / 100;
  } catch {
    return null;
  }
}

function* allTransitions(traces: number, calls: number): Generator<TransitionRow> {
  const opts = { method: "ccp" as const, preset: BUILTIN_PRESETS.uniform, normalize: false, annotationsAsOf: null, hackingFlags: [] };
  for (let i = 0; i < traces; i++) {
    const trace = benchTrace(i, calls);
    yield* transitionRows(prepareTrace(trace), trace.calls!, opts);
  }
}

async function writeAll(file: string, chunks: AsyncIterable<Uint8Array | string> | Iterable<string>): Promise<void> {
  const out = createWriteStream(file);
  for await (const c of chunks) if (!out.write(c)) await new Promise<void>((r) => out.once("drain", () => r()));
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** One pipeline measurement, run in a child: prints a JSON line. */
async function child(kind: string, traces: number, calls: number): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `transitions-${kind}-${traces}`);
  const started = performance.now();
  let rows = 0;
  let shardBytes = 0;
  let waitSeconds = 0;
  if (kind === "baseline") for (const _ of allTransitions(traces, calls)) rows++;
  else if (kind === "jsonl") {
    await writeAll(file, (function* () {
      for (const r of allTransitions(traces, calls)) {
        rows++;
        yield `${JSON.stringify(r)}\n`;
      }
    })());
  } else if (kind === "shards") {
    // what a snapshot build does with its rows, without the database: shards of SHARD_ROWS rows, each row's hash, DuckDB's Parquet
    const { ShardFile } = await import("@/lib/server/datasets/shard-file");
    const { SHARD_ROWS } = await import("@/lib/datasets/layout");
    let shard = new ShardFile("parquet", "transitions", "bench-0");
    let total = 0;
    // as a build does it: a shard is encoded (DuckDB's thread) while the next one's rows are computed
    let encoding: Promise<void> = Promise.resolve();
    const flush = async () => {
      // what the rows wait for DuckDB (its work beside the next shard's rows is not counted)
      const t0 = performance.now();
      await encoding;
      waitSeconds += (performance.now() - t0) / 1000;
      encoding = shard.bytes().then((bytes) => {
        total += bytes.length;
      });
      shard = new ShardFile("parquet", "transitions", `bench-${rows}`);
    };
    for (const r of allTransitions(traces, calls)) {
      shard.add(r as unknown as Record<string, unknown>);
      if (++rows % SHARD_ROWS === 0) await flush();
    }
    if (rows % SHARD_ROWS !== 0) await flush();
    const t0 = performance.now();
    await encoding;
    waitSeconds += (performance.now() - t0) / 1000;
    writeFileSync(file, Buffer.alloc(0));
    shardBytes = total;
  } else {
    const counted = (function* () {
      for (const r of allTransitions(traces, calls)) {
        rows++;
        yield r;
      }
    })();
    await writeAll(file, parquetChunks(counted, (first) => formColumns("transitions", first)));
  }
  const seconds = (performance.now() - started) / 1000;
  const bytes = kind === "baseline" ? 0 : kind === "shards" ? shardBytes : statSync(file).size;
  rmSync(file, { force: true });
  console.log(JSON.stringify({ kind, traces, rows, seconds, bytes, rssMB: process.resourceUsage().maxRSS / 1024, ...(kind === "shards" && { waitSeconds }) }));
}

/**
 * The snapshot build alone (DATABASE_URL from the parent): prints a JSON line.
 * `here`: buildSnapshot in this process, its heap uncapped (the baseline);
 * `elsewhere:N`: the job's way, buildSnapshotElsewhere with N children (0:
 * the default number), which reports their RSS and CPU on a log line.
 */
async function snapshotChild(datasetId: number, how: string): Promise<void> {
  process.env.BATON_DATASET_WORKER = "0";
  const { buildSnapshot } = await import("@/lib/server/datasets/build");
  const { buildSnapshotElsewhere } = await import("@/lib/server/datasets/build-process");
  const { pool } = await import("@/lib/server/db/client");
  const started = performance.now();
  if (how === "rows") {
    // the rows read from PostgreSQL and computed, shard by shard, nothing encoded or stored
    const { buildContext, planShards, shardRecords } = await import("@/lib/server/datasets/build");
    const ctx = (await buildContext(datasetId))!;
    const counts = { traces: 0, rows: 0, traces_without_calls: 0, traces_skipped_no_group: 0 };
    let rows = 0;
    for (const plan of await planShards(ctx)) for await (const _ of shardRecords(ctx, plan, counts)) rows++;
    const seconds = (performance.now() - started) / 1000;
    await pool().end();
    const usage = process.resourceUsage();
    console.log(JSON.stringify({ seconds, rows, rssMB: usage.maxRSS / 1024, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 }));
    return;
  }
  if (how.startsWith("elsewhere:")) await buildSnapshotElsewhere(datasetId, { child: true, processes: Number(how.slice("elsewhere:".length)) || undefined });
  else await buildSnapshot(datasetId);
  const seconds = (performance.now() - started) / 1000;
  await pool().end();
  const usage = process.resourceUsage();
  console.log(JSON.stringify({ seconds, rssMB: usage.maxRSS / 1024, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 }));
}

function runChild(kind: string, traces: number, calls: number): { kind: string; traces: number; rows: number; seconds: number; bytes: number; rssMB: number; waitSeconds?: number } {
  const result = spawnSync(process.execPath, [...childFlags(), "--import", "tsx", "--conditions=react-server", process.argv[1]!, "--child", kind, "--traces", String(traces), "--calls", String(calls)], { encoding: "utf8", maxBuffer: 1 << 24 });
  if (result.status !== 0) throw new Error(`child ${kind} failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!) as ReturnType<typeof runChild>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      child: { type: "string" },
      dataset: { type: "string" },
      how: { type: "string" },
      traces: { type: "string", default: "100000" },
      calls: { type: "string", default: "10" },
      "db-traces": { type: "string", default: "2000" },
      "big-events": { type: "string", default: "200000" },
      "big-exports": { type: "string", default: "12" },
      skip: { type: "string", default: "" },
      reuse: { type: "boolean", default: false },
      profile: { type: "boolean", default: false },
    },
  });
  const traces = Number(values.traces);
  const calls = Number(values.calls);
  if (values.child === "snapshot") return snapshotChild(Number(values.dataset), values.how ?? "here");
  if (values.child) return child(values.child, traces, calls);
  const skip = new Set(values.skip.split(",").filter(Boolean));
  // the rows computed in section 1 (the snapshot's baseline in section 2 when it holds as many transitions)
  let rowsComputed: { rows: number; seconds: number } | null = null;
  console.log(`bench:dataset on ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(" ")}, Node ${process.version}`);

  if (!skip.has("pipeline")) {
    console.log(`\n1. ${fmt(traces * calls)} transitions (${fmt(traces)} traces x ${calls} calls), the transitions form to a file`);
    // `--skip parquet`: not the export's Parquet (hyparquet-writer, minutes at 1,000,000 rows on a loaded machine)
    const hy = !skip.has("parquet");
    const rows = [runChild("baseline", traces, calls), runChild("jsonl", traces, calls), ...(hy ? [runChild("parquet", traces, calls), runChild("parquet", Math.max(1, Math.round(traces / 10)), calls)] : []), runChild("shards", traces, calls)];
    const [base, jsonl] = rows as [typeof rows[0], typeof rows[0]];
    const shards = rows.at(-1)!;
    console.log("| run | rows | time | rows/s | file | peak RSS |\n|---|---|---|---|---|---|");
    rowsComputed = { rows: base.rows, seconds: base.seconds };
    const label = (kind: string) => (kind === "baseline" ? "rows computed, nothing written" : kind === "shards" ? "snapshot shards without the database (hashes, DuckDB Parquet)" : kind === "parquet" ? "parquet (hyparquet-writer, the export's)" : kind);
    for (const r of rows) console.log(`| ${label(r.kind)} | ${fmt(r.rows)} | ${fmt(r.seconds, 1)} s | ${fmt(r.rows / r.seconds)} | ${r.bytes ? `${fmt(r.bytes / 1e6, 1)} MB` : "-"} | ${fmt(r.rssMB)} MB |`);
    if (hy) {
      const [parquet, tenth] = [rows[2]!, rows[3]!];
      console.log(`Parquet / JSONL: time ${fmt(parquet.seconds / jsonl.seconds, 2)}x, size ${fmt(parquet.bytes / jsonl.bytes, 2)}x; encoding cost over computing the rows: Parquet +${fmt(parquet.seconds - base.seconds, 1)} s, JSONL +${fmt(jsonl.seconds - base.seconds, 1)} s`);
      console.log(`peak RSS at ${fmt(tenth.traces)} traces ${fmt(tenth.rssMB)} MB vs ${fmt(parquet.traces)} traces ${fmt(parquet.rssMB)} MB (targets: < 60 s, < 512 MB)`);
    }
    console.log(`snapshot shards without the database / rows computed: time ${fmt(shards.seconds / base.seconds, 2)}x (of which waiting for DuckDB's encoding, done beside the next shard's rows: ${fmt(shards.waitSeconds ?? 0, 1)} s); JSONL / rows computed ${fmt(jsonl.seconds / base.seconds, 2)}x`);
  }

  if (skip.has("db")) return;
  if (skip.has("snapshot") && skip.has("exports")) return;
  const db = await benchDatabase("bench_dataset", { reuse: values.reuse, embedded: { dataDir: ".baton-bench-dataset/pg", port: Number(process.env.BATON_BENCH_DATASET_PG_PORT ?? 24369) } });
  process.env.DATABASE_URL = db.url;
  process.env.BATON_DATASET_WORKER = "0";
  const { ingestRecords } = await import("@/lib/server/ingest/ingest");
  const { prisma, pool } = await import("@/lib/server/db/client");
  const { syntheticTrace } = await import("@/lib/demo/synthetic");
  try {
    if (!skip.has("snapshot")) {
      const dbTraces = Number(values["db-traces"]);
      const t0 = performance.now();
      const stored = db.reused ? await prisma().trace.count({ where: { traceId: { startsWith: "bench-" } } }) : 0;
      if (stored === dbTraces) console.log(`reusing the ${fmt(stored)} traces of an earlier run`);
      else if (stored > 0) await prisma().trace.deleteMany();
      for (let i = 0; stored !== dbTraces && i < dbTraces; i += 500) {
        const batch = Array.from({ length: Math.min(500, dbTraces - i) }, (_, k) => ({ value: benchTrace(i + k, calls), base: `$[${k}]` }));
        await ingestRecords(batch, { upsert: false });
      }
      const ingestSeconds = (performance.now() - t0) / 1000;
      const request = { body: { name: "bench", filter: {}, form: "transitions", format: "parquet" }, readable: null };
      console.log(`\n2. snapshot through PostgreSQL: ${fmt(dbTraces)} traces stored in ${fmt(ingestSeconds, 1)} s`);
      console.log("| build | transitions | time | transitions/s | files (data files' and row hashes' digest) | peak RSS | CPU | PostgreSQL CPU |\n|---|---|---|---|---|---|---|---|");
      const measured: Record<string, number> = {};
      const peaks: Record<string, number> = {};
      const { buildProcesses } = await import("@/lib/server/datasets/build-process");
      const builds: [string, string][] = [["rows", "rows read from PostgreSQL and computed, nothing encoded or stored"], ["here", "in one process, heap uncapped"], ["elsewhere:1", "the job's way, 1 child process (heap sized to the largest trace)"]];
      if (buildProcesses() > 1) builds.push(["elsewhere:0", `the job's way, ${buildProcesses()} child processes (the default here)`]);
      for (const [how, label] of builds) {
        const row = await prisma().dataset.create({ data: { name: "bench", filterKey: `bench-${how}`, request } });
        // the build in a process of its own, so that its peak RSS is the snapshot's alone (not the ingest's above)
        const pgBefore = postgresCpuSeconds(path.join(OUT, "pg", "pg"));
        const result = spawnSync(process.execPath, [...childFlags(), "--import", "tsx", "--conditions=react-server", process.argv[1]!, "--child", "snapshot", "--dataset", String(row.id), "--how", how], { encoding: "utf8", env: { ...process.env, DATABASE_URL: db.url }, maxBuffer: 1 << 24 });
        // the backends of the child's connections exit once it has: give the postmaster a moment to reap them
        await new Promise((r) => setTimeout(r, 300));
        const pgAfter = postgresCpuSeconds(path.join(OUT, "pg", "pg"));
        const pgCpu = pgBefore === null || pgAfter === null ? "-" : `${fmt(pgAfter - pgBefore, 1)} s`;
        if (result.status !== 0) throw new Error(`snapshot child failed: ${result.stderr}`);
        const own = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { seconds: number; rssMB: number; cpuSeconds: number };
        const seconds = own.seconds;
        let { rssMB, cpuSeconds } = own;
        // the job's own child reports itself on its log line
        const line = /built in ([\d.]+) s by \d+ processes, \d+ shards, peak RSS (\d+) MB \(each\), CPU ([\d.]+) s/.exec(result.stdout);
        if (how.startsWith("elsewhere:")) {
          if (!line) throw new Error(`the build processes did not report themselves: ${result.stdout}`);
          rssMB = Math.max(Number(line[2]), rssMB);
          cpuSeconds += Number(line[3]);
        }
        measured[how] = seconds;
        if (how === "rows") {
          const { rows } = own as typeof own & { rows: number };
          console.log(`| ${label} | ${fmt(rows)} | ${fmt(seconds, 1)} s | ${fmt(rows / seconds)} | - | ${fmt(rssMB)} MB | ${fmt(cpuSeconds, 1)} s | ${pgCpu} |`);
        } else {
          const done = await prisma().dataset.findUniqueOrThrow({ where: { id: row.id } });
          const manifest = done.manifest as { counts: { rows: number }; files: { bytes: number; sha256: string }[] };
          // every data file's SHA-256 and every row's hash (what a diff compares), in one digest: the same for the same bytes
          const digest = await pool().query<{ files: string; rows: string }>(
            `SELECT (SELECT md5(string_agg(sha256, ',' ORDER BY path)) FROM dataset_files WHERE dataset_id = $1 AND path LIKE 'data/%') AS files,
                    (SELECT md5(string_agg(array_to_string(keys, ',') || ';' || array_to_string(hashes, ','), ';' ORDER BY shard)) FROM dataset_row_sets WHERE dataset_id = $1) AS rows`,
            [row.id],
          );
          const d = digest.rows[0]!;
          console.log(`| ${label} | ${fmt(manifest.counts.rows)} | ${fmt(seconds, 1)} s | ${fmt(manifest.counts.rows / seconds)} | ${fmt(manifest.files.reduce((s, f) => s + f.bytes, 0) / 1e6, 1)} MB (files ${d.files.slice(0, 8)}, rows ${d.rows.slice(0, 8)}) | ${fmt(rssMB)} MB | ${fmt(cpuSeconds, 1)} s | ${pgCpu} |`);
          peaks[how] = rssMB;
        }
        await prisma().dataset.delete({ where: { id: row.id } });
      }
      const baseline = rowsComputed !== null && rowsComputed.rows === dbTraces * calls ? rowsComputed : null;
      console.log(baseline === null ? "(no rows-computed baseline of as many transitions in this run: section 1 skipped or of another size)" : `rows computed, nothing written (section 1, this run): ${fmt(baseline.seconds, 1)} s`);
      for (const [how, label] of builds.slice(1)) {
        const vs = baseline === null ? "" : `; ${fmt(measured[how]! / baseline.seconds, 2)}x the rows computed (target < 2x)`;
        console.log(`${label}: ${fmt(measured[how]!, 1)} s, ${fmt(measured[how]! / measured.rows!, 2)}x the rows read from PostgreSQL${vs}; peak RSS ${fmt(peaks[how]!)} MB (target < 512 MB)`);
      }
    }
    if (!skip.has("exports")) {
      const events = Number(values["big-events"]);
      const n = Number(values["big-exports"]);
      await ingestRecords([{ value: syntheticTrace({ events, seed: 7, traceId: "big" }), base: "$" }, { value: syntheticTrace({ events: 20, seed: 8, traceId: "small" }), base: "$" }], { upsert: true });
      console.log(`\n3. ${n} exports of a ${fmt(events)}-event trace (event rows, JSONL) at once, with small requests going on`);
      await fairness({ bigId: "big", smallId: "small", exports: n, smallAlone: 400 });
    }
  } finally {
    await pool().end().catch(() => {});
    await db.close();
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
