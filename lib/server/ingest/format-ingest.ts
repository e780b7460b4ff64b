import "server-only";
import { open, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { ADAPTER_FORMATS, adapt, chatDevLogIn, detectPath, type AdapterFormat } from "@/lib/adapters";
import type { TraceRecord } from "@/lib/ingest/parse";
import { SNIFF_BYTES, unsupportedInput } from "@/lib/ingest/sniff";
import type { Problem } from "@/lib/trace/validate";
import { ApiError } from "../errors";
import { failedFile, ingestFile, type FileOutcome } from "./file-ingest";
import { inTransaction, validateRecords } from "./ingest";
import { scheduleGraphPages } from "../graph-pages/jobs";
import { storeTraces, type StoreOptions, type StoredTrace } from "./store";

/**
 * Ingests a source in another system's format (Who&When, MARBLE, tau-bench,
 * ChatDev, AgentOps): the adapter turns it into traces, which go through the
 * same validate -> store path as `ingestFile`, in one transaction per file
 * or ChatDev run folder, all or nothing. `baton` (and `auto` on a file that
 * matches no other format) is today's path, `ingestFile`, unchanged.
 */

export const INGEST_FORMATS = ["auto", ...ADAPTER_FORMATS] as const;
export type IngestFormat = (typeof INGEST_FORMATS)[number];

export function isIngestFormat(value: string): value is IngestFormat {
  return (INGEST_FORMATS as readonly string[]).includes(value);
}

const BATCH_EVENTS = 50_000;
const MAX_REPORTED_PROBLEMS = 1000;
const TRACE_FILE = /\.(json|jsonl|ndjson)$/i;

export async function ingestFormatted(input: string, opts: StoreOptions & { format: IngestFormat; onBytes?: (bytes: number) => void }): Promise<FileOutcome> {
  let format: AdapterFormat;
  try {
    const refused = await unsupportedFile(input);
    if (refused) return { file: input, ok: false, traces: [], problems: [{ path: "$", message: refused }] };
    format = opts.format === "auto" ? ((await detectPath(input)) ?? "baton") : opts.format;
  } catch (error) {
    return failedFile(input, error);
  }
  if (format === "baton") return ingestFile(input, opts);
  const source = format;
  try {
    const traces = await inTransaction(async (client) => {
      const stored: StoredTrace[] = [];
      const problems: Problem[] = [];
      let batch: TraceRecord[] = [];
      let events = 0;
      const flush = async () => {
        const { items, problems: found } = validateRecords(batch);
        problems.push(...found);
        // once anything is invalid, keep validating (to report every problem) but write nothing more
        if (problems.length === 0) stored.push(...(await storeTraces(client, items, opts)));
        batch = [];
        events = 0;
      };
      let index = 0;
      for await (const trace of adapt(source, input)) {
        batch.push({ base: `$[${index++}]`, value: trace });
        events += trace.events.length;
        if (events >= BATCH_EVENTS) await flush();
        if (problems.length > MAX_REPORTED_PROBLEMS) break;
      }
      if (batch.length > 0) await flush();
      if (problems.length > 0) throw new ApiError(400, "invalid_input", `${problems.length} problem(s)`, problems.slice(0, MAX_REPORTED_PROBLEMS));
      return stored;
    });
    await scheduleGraphPages(traces);
    opts.onBytes?.(await inputBytes(input));
    return { file: input, ok: true, traces, problems: [] };
  } catch (error) {
    return failedFile(input, error);
  }
}

/** An empty, binary or CSV file, named as such before any parser reads it (a run folder is never one). */
async function unsupportedFile(input: string): Promise<string | null> {
  const s = await stat(input);
  if (s.isDirectory()) return null;
  const handle = await open(input, "r");
  try {
    const head = new Uint8Array(Math.min(SNIFF_BYTES, s.size));
    await handle.read(head, 0, head.length, 0);
    return unsupportedInput(path.basename(input), head, s.size);
  } finally {
    await handle.close();
  }
}


/**
 * The inputs under a path, sorted: trace files (.json / .jsonl / .ndjson),
 * and for `auto` and `chatdev` each ChatDev run folder as one input (its
 * config .json files are part of the run, not traces). With `chatdev`, only
 * run folders and .log files are inputs.
 */
export async function expandInputs(p: string, format: IngestFormat): Promise<string[]> {
  if (!(await stat(p)).isDirectory()) return [p];
  const runFolders = format === "auto" || format === "chatdev";
  if (runFolders && (await chatDevLogIn(p)) !== null) return [p];
  const found: string[] = [];
  for (const entry of await readdir(p, { withFileTypes: true })) {
    const child = path.join(p, entry.name);
    if (entry.isDirectory()) found.push(...(await expandInputs(child, format)));
    else if (entry.isFile() && (format === "chatdev" ? entry.name.endsWith(".log") : TRACE_FILE.test(entry.name))) found.push(child);
  }
  return found.sort();
}

/** Bytes of a file, or of the files of a run folder (for the progress bar). */
export async function inputBytes(p: string): Promise<number> {
  const s = await stat(p);
  if (!s.isDirectory()) return s.size;
  const entries = await readdir(p, { withFileTypes: true });
  const sizes = await Promise.all(entries.filter((e) => e.isFile()).map(async (e) => (await stat(path.join(p, e.name))).size));
  return sizes.reduce((a, b) => a + b, 0);
}
