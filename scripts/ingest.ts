/**
 * `npm run ingest -- [--upsert] [--format auto|baton|whowhen|marble|taubench|chatdev|agentops|otlp] <files or folders>`:
 * loads .json / .jsonl traces (or, through lib/adapters, another system's
 * runs; `auto` detects the format by content) through the same ingest path
 * as the API, one transaction per file or ChatDev run folder, with a
 * progress bar and a per-file summary. Exits 1 if any file failed.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { SingleBar, Presets } from "cli-progress";
import { readConfig } from "@/lib/server/config";
import { readyDatabase } from "@/lib/server/db/bootstrap";
import { closeDatabase } from "@/lib/server/db/client";
import type { FileOutcome } from "@/lib/server/ingest/file-ingest";
import { expandInputs, ingestFormatted, inputBytes, isIngestFormat, INGEST_FORMATS } from "@/lib/server/ingest/format-ingest";

/** The operator at the command line may replace a trace of any project (and move it into the file's). */
const operatorMayReplace = () => true;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { upsert: { type: "boolean", default: false }, format: { type: "string", default: "auto" } } });
  const format = values.format;
  if (positionals.length === 0 || !isIngestFormat(format)) {
    console.error(`usage: npm run ingest -- [--upsert] [--format ${INGEST_FORMATS.join("|")}] <files or folders>`);
    return 2;
  }
  const files = (await Promise.all(positionals.map((p) => expandInputs(p, format)))).flat();
  if (files.length === 0) {
    console.error("no .json / .jsonl files found");
    return 2;
  }
  const config = readConfig();
  const db = await readyDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.BATON_DATA_DIR, pgPort: config.BATON_PG_PORT });
  process.env.DATABASE_URL = db.url;
  const totalBytes = (await Promise.all(files.map(inputBytes))).reduce((a, b) => a + b, 0);
  const bar = new SingleBar({ format: " {bar} {percentage}% | {value}/{total} MB | {file}", hideCursor: true, noTTYOutput: false }, Presets.shades_classic);
  const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
  bar.start(mb(totalBytes), 0, { file: "" });
  let done = 0;
  const outcomes: FileOutcome[] = [];
  for (const file of files) {
    bar.update(mb(done), { file: path.basename(file) });
    outcomes.push(await ingestFormatted(file, { format, upsert: values.upsert, mayReplace: operatorMayReplace, onBytes: (b) => { done += b; bar.update(mb(done)); } }));
  }
  bar.update(mb(totalBytes));
  bar.stop();
  await closeDatabase();
  if (db.embedded && !db.embedded.reused) await db.embedded.stop();
  return report(outcomes);
}

function report(outcomes: FileOutcome[]): number {
  let failed = 0;
  for (const o of outcomes) {
    if (o.ok) {
      const events = o.traces.reduce((s, t) => s + t.events, 0);
      console.log(`ok      ${o.file}: ${o.traces.length} trace(s), ${events} events`);
    } else {
      failed++;
      console.log(`FAILED  ${o.file}: nothing stored; ${o.problems.length} problem(s)`);
      for (const p of o.problems.slice(0, 20)) console.log(`          ${p.path}: ${p.message}`);
      if (o.problems.length > 20) console.log(`          … and ${o.problems.length - 20} more`);
    }
  }
  console.log(`${outcomes.length - failed} file(s) ok, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`ingest failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
