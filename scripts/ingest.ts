/**
 * `npm run ingest -- [--upsert | --skip-existing] [--format auto|baton|whowhen|marble|taubench|chatdev|agentops|otlp] <files or folders>`:
 * loads .json / .jsonl traces (or, through lib/adapters, another system's
 * runs; `auto` detects the format by content) through the same ingest path
 * as the API, one transaction per file or ChatDev run folder, with a
 * progress bar and a per-file summary. A file whose traces are all stored
 * already (a rerun) is said so, not counted a failure. Exits 1 if any file
 * failed.
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

const USAGE = `usage: npm run ingest -- [options] <files or folders>

Loads traces into Baton (the database of npm start, or DATABASE_URL): .json and
.jsonl files, folders of them (searched recursively), ChatDev run folders. Each
file is stored all or nothing, in one transaction; a file of any size streams.

options:
  --format <f>      ${INGEST_FORMATS.join(" | ")} (default auto: detected from
                    the content and the name)
  --upsert          replace traces whose trace_id is stored already
  --skip-existing   leave traces whose trace_id is stored already as they are
                    (re-running over a folder loads only what is new)
  -h, --help        this help

Without --upsert or --skip-existing, a file with a trace_id stored already is
left as it is and listed as stored already (nothing of it is written).

Exits 0 when every file was stored, skipped or stored already, 1 when any
failed, 2 on bad arguments.`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { upsert: { type: "boolean", default: false }, "skip-existing": { type: "boolean", default: false }, format: { type: "string", default: "auto" }, help: { type: "boolean", short: "h", default: false } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const format = values.format;
  if (!isIngestFormat(format)) {
    console.error(`unknown format "${format}": --format ${INGEST_FORMATS.join("|")}\n\n${USAGE}`);
    return 2;
  }
  if (positionals.length === 0) {
    console.error(USAGE);
    return 2;
  }
  if (values.upsert && values["skip-existing"]) {
    console.error("--upsert and --skip-existing exclude each other: replace stored traces, or leave them");
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
    outcomes.push(await ingestFormatted(file, { format, upsert: values.upsert, skipExisting: values["skip-existing"], mayReplace: operatorMayReplace, onBytes: (b) => { done += b; bar.update(mb(done)); } }));
  }
  bar.update(mb(totalBytes));
  bar.stop();
  await closeDatabase();
  if (db.embedded && !db.embedded.reused) await db.embedded.stop();
  return report(outcomes);
}

function report(outcomes: FileOutcome[]): number {
  let failed = 0;
  let storedAlready = 0;
  for (const o of outcomes) {
    if (!o.ok && o.storedAlready && o.storedAlready.length > 0) {
      storedAlready++;
      const ids = o.storedAlready;
      console.log(`stored  ${o.file}: already stored (${ids.slice(0, 3).join(", ")}${ids.length > 3 ? `, … ${ids.length} in all` : ""}); nothing written`);
    } else if (o.ok) {
      const stored = o.traces.filter((t) => !t.skipped);
      const events = stored.reduce((s, t) => s + t.events, 0);
      const skipped = o.traces.length - stored.length;
      if (stored.length === 0 && skipped > 0) console.log(`skipped ${o.file}: its ${skipped} trace(s) are stored already`);
      else console.log(`ok      ${o.file}: ${stored.length} trace(s), ${events} events${skipped > 0 ? `; ${skipped} stored already, skipped` : ""}`);
    } else {
      failed++;
      console.log(`FAILED  ${o.file}: nothing stored; ${o.problems.length} problem(s)`);
      for (const p of o.problems.slice(0, 20)) console.log(`          ${p.path}: ${p.message}`);
      if (o.problems.length > 20) console.log(`          … and ${o.problems.length - 20} more`);
    }
  }
  const ok = outcomes.length - failed - storedAlready;
  console.log(`${ok} file(s) ok, ${storedAlready > 0 ? `${storedAlready} already stored, ` : ""}${failed} failed`);
  if (storedAlready > 0) console.log("files already stored were left as they are: --upsert replaces them, --skip-existing loads only their new traces");
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`ingest failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
