import "server-only";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { prisma } from "../db/client";
import { countTraces, largestTraceEvents } from "../queries/trace-list";
import { buildSnapshot, clearPartial } from "./build";
import { checkDatasetRequest } from "./request";

/**
 * Runs a snapshot build (build.ts) in a child process: minutes of CPU
 * there do not hold up the requests of the app process, and the child's
 * heap is capped, so its memory is bounded by the largest trace it exports
 * whatever the number of traces (a process that is never told to collect
 * grows its heap to several times what it holds). The child is
 * build-child.ts under tsx, from the directory Baton runs in; a small
 * snapshot, a checkout without that file, or BATON_DATASET_PROCESS=0 builds
 * in this process.
 */
// the child runs from the sources, under tsx, not from the build: the bundler is told not to follow the path
const childPath = () => path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "server", "datasets", "build-child.ts");

/** The child's heap: a base for the pipeline's buffers plus room for the largest trace, loaded whole with its credit. */
export function buildHeapMb(largestEvents: number): number {
  const base = Number(process.env.BATON_DATASET_HEAP_MB ?? 320);
  return Math.min(16_384, Math.ceil(base + (largestEvents * HEAP_BYTES_PER_EVENT) / 2 ** 20));
}

/** Heap per event of a trace being exported (measured: about 2.8 KB per event for a 50,000-event trace's export, docs/train-with-baton.md). */
const HEAP_BYTES_PER_EVENT = 4096;

/** Fewer matching traces than this are built in this process (a child's start costs a second or two). */
export const IN_PROCESS_BELOW = 200;

export async function buildSnapshotElsewhere(datasetId: number, opts: { child?: boolean } = {}): Promise<void> {
  const child = childPath();
  if (process.env.BATON_DATASET_PROCESS === "0" || !existsSync(child)) return buildSnapshot(datasetId);
  const dataset = await prisma().dataset.findUniqueOrThrow({ where: { id: datasetId } });
  if (dataset.state === "ready") return;
  const stored = dataset.request as { body: unknown; readable: string[] | null };
  const { filter } = await checkDatasetRequest(stored.body);
  if (!(opts.child ?? (await countTraces(filter, stored.readable)) >= IN_PROCESS_BELOW)) return buildSnapshot(datasetId);
  const heap = buildHeapMb(await largestTraceEvents(filter, stored.readable));
  let stderr = "";
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    const worker = spawn(process.execPath, [`--max-old-space-size=${heap}`, "--import", "tsx", "--conditions=react-server", child, String(datasetId)], { stdio: ["ignore", "inherit", "pipe"] });
    // passed on as it comes; its end kept to say why the child died
    worker.stderr.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      stderr = (stderr + chunk.toString("utf8")).slice(-4096);
    });
    worker.once("error", reject);
    worker.once("exit", (c, s) => resolve({ code: c, signal: s }));
  });
  if (code === 0) return;
  const row = await prisma().dataset.findUniqueOrThrow({ where: { id: datasetId } });
  // the child marked it failed itself: the build's own error
  if (row.state === "failed") throw new Error(`snapshot ${datasetId} failed: ${row.error ?? "unknown error"}`);
  // it died (out of memory, killed): nothing of it is listed; say why, so that the job's retry or a person can act
  await clearPartial(datasetId);
  const why = /heap out of memory/i.test(stderr) ? "its process ran out of memory" : signal ? `its process was stopped (${signal})` : `its process exited with code ${code}`;
  await prisma().dataset.update({ where: { id: datasetId }, data: { state: "failed", error: `${why}; with a heap of ${heap} MB (BATON_DATASET_HEAP_MB raises its base)` } });
  throw new Error(`snapshot ${datasetId}: ${why}`);
}
