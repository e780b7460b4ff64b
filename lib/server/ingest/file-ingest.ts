import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { parseJsonBody, parseJsonLine, type TraceRecord } from "@/lib/ingest/parse";
import type { Problem } from "@/lib/trace/validate";
import { ApiError } from "../errors";
import { inTransaction, recomputeLabelled, validateRecords } from "./ingest";
import { scheduleGraphPages } from "../graph-pages/jobs";
import { storeTraces, type StoreOptions, type StoredTrace } from "./store";

/**
 * Ingests one file through the same path as the API, all or nothing:
 * JSONL is streamed line by line and stored in batches inside one
 * transaction (memory stays flat for files of any size); a .json file holds
 * one trace or an array and is read whole.
 */
export interface FileOutcome {
  file: string;
  ok: boolean;
  traces: StoredTrace[];
  problems: Problem[];
  /** a file refused only because traces of it are stored already: their trace ids (nothing of the file was written) */
  storedAlready?: string[];
}

/** The outcome of a file whose write failed; a conflict with stored traces says which. */
export function failedFile(file: string, error: unknown): FileOutcome {
  if (!(error instanceof ApiError)) return { file, ok: false, traces: [], problems: [{ path: "$", message: error instanceof Error ? error.message : String(error) }] };
  const problems = error.details.length ? error.details : [{ path: "$", message: error.message }];
  if (error.code !== "conflict") return { file, ok: false, traces: [], problems };
  const storedAlready = error.details.map((d) => /^trace_id "(.*)" exists$/.exec(d.message)?.[1]).filter((id): id is string => id !== undefined);
  return { file, ok: false, traces: [], problems, storedAlready };
}

const BATCH_EVENTS = 20_000;
const MAX_REPORTED_PROBLEMS = 1000;

export async function ingestFile(file: string, opts: StoreOptions & { onBytes?: (bytes: number) => void }): Promise<FileOutcome> {
  const jsonl = /\.(jsonl|ndjson)$/i.test(file);
  try {
    const traces = await inTransaction(async (client) => {
      const stored: StoredTrace[] = [];
      const problems: Problem[] = [];
      const flush = async (batch: TraceRecord[]) => {
        const { items, problems: found } = validateRecords(batch);
        problems.push(...found);
        // once anything is invalid, keep validating (to report every problem) but write nothing more
        if (problems.length === 0) stored.push(...(await storeTraces(client, items, opts)));
      };
      const records = jsonl ? readJsonLines(file, problems, opts.onBytes) : readJsonFile(file, problems, opts.onBytes);
      let batch: TraceRecord[] = [];
      let events = 0;
      for await (const record of records) {
        batch.push(record);
        events += eventCount(record.value);
        if (events >= BATCH_EVENTS) {
          await flush(batch);
          batch = [];
          events = 0;
        }
        if (problems.length > MAX_REPORTED_PROBLEMS) break;
      }
      if (batch.length > 0) await flush(batch);
      if (problems.length > 0) throw new ApiError(400, "invalid_input", `${problems.length} problem(s)`, problems.slice(0, MAX_REPORTED_PROBLEMS));
      return stored;
    });
    if (opts.upsert) await recomputeLabelled(traces);
    await scheduleGraphPages(traces);
    return { file, ok: true, traces, problems: [] };
  } catch (error) {
    return failedFile(file, error);
  }
}

async function* readJsonLines(file: string, problems: Problem[], onBytes?: (bytes: number) => void): AsyncGenerator<TraceRecord> {
  let lineNumber = 0;
  let index = 0;
  for await (const line of linesOf(file)) {
    lineNumber++;
    onBytes?.(Buffer.byteLength(line) + 1);
    const parsed = parseJsonLine(line, index, lineNumber);
    if (parsed === null) continue;
    index++;
    if ("problem" in parsed) problems.push(parsed.problem);
    else yield parsed;
  }
}

async function* readJsonFile(file: string, problems: Problem[], onBytes?: (bytes: number) => void): AsyncGenerator<TraceRecord> {
  const size = (await stat(file)).size;
  const parsed = parseJsonBody(await readFile(file, "utf8"));
  onBytes?.(size);
  if (!parsed.ok) {
    problems.push(...parsed.problems);
    return;
  }
  yield* parsed.records;
}

/**
 * The lines of a file, read as they are consumed. (readline's async iterator
 * does not wait for its consumer: while a batch is being stored it would read
 * ahead and hold the rest of a large file in memory.)
 */
async function* linesOf(file: string): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 })) {
    const parts = (rest + (chunk as string)).split("\n");
    rest = parts.pop()!;
    for (const line of parts) yield line.endsWith("\r") ? line.slice(0, -1) : line;
  }
  if (rest !== "") yield rest;
}

function eventCount(value: unknown): number {
  const events = (value as { events?: unknown } | null)?.events;
  return Array.isArray(events) ? events.length : 1;
}
