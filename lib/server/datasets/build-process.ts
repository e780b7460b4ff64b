import "server-only";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { countTraces, largestTraceEvents } from "../queries/trace-list";
import { buildContext, buildSnapshot, failBuild, finishBuild, heartbeat, planShards, recordProgress, startBuild, type ShardPlan, type ShardResult } from "./build";
import { setting } from "../config";

/**
 * Runs a snapshot build (build.ts) in child processes: this process plans
 * the shards and finishes the snapshot (a few queries), and
 * BATON_DATASET_PROCESSES children (default: the cores, at most 4) build
 * the shards, each asking for the next when it is done. Minutes of CPU
 * there do not hold up the requests of the app process, the cores share
 * the work, and each child's heap is capped, so its memory is bounded by
 * the largest trace it exports whatever the number of traces (a process
 * that is never told to collect grows its heap to several times what it
 * holds). A shard's bytes do not depend on which process built it.
 *
 * The children are build-child.ts under tsx, from the directory Baton runs
 * in; a small snapshot, a checkout without that file, or
 * BATON_DATASET_PROCESS=0 builds in this process.
 */
// the child runs from the sources, under tsx, not from the build: the bundler is told not to follow the path
const childPath = () => path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "server", "datasets", "build-child.ts");

/** A child's heap: a base for the pipeline's buffers plus room for the largest trace, loaded whole with its credit. */
export function buildHeapMb(largestEvents: number): number {
  const base = setting("BATON_DATASET_HEAP_MB");
  return Math.min(16_384, Math.ceil(base + (largestEvents * HEAP_BYTES_PER_EVENT) / 2 ** 20));
}

/** Heap per event of a trace being exported (measured: about 2.8 KB per event for a 50,000-event trace's export, docs/train-with-baton.md). */
const HEAP_BYTES_PER_EVENT = 4096;

/**
 * A child's young generation (each of its semispaces, MB). V8 sizes it from
 * the heap's cap, and under a cap of a few hundred MB leaves it so small
 * that the rows' short-lived objects (every row, its JSON, the pages read)
 * outlive it and are collected by full collections: measured at 200,000
 * transitions, the child's CPU was 22-24 s with V8's own size and 16-18 s
 * with 32 MB, its peak RSS 320 MB and 390 MB (docs/train-with-baton.md).
 */
const SEMI_SPACE_MB = 32;

/** Fewer matching traces than this are built in this process (a child's start costs a second or two). */
export const IN_PROCESS_BELOW = 200;

/** How many child processes build a snapshot's shards. */
export function buildProcesses(): number {
  return setting("BATON_DATASET_PROCESSES") ?? Math.min(4, availableParallelism());
}

export interface ElsewhereOptions {
  /** build in children whatever the number of traces (tests, benchmarks) */
  child?: boolean;
  /** child processes (default buildProcesses()) */
  processes?: number;
  /** rows per shard (tests) */
  shardRows?: number;
}

export async function buildSnapshotElsewhere(datasetId: number, opts: ElsewhereOptions = {}): Promise<void> {
  const child = childPath();
  if (setting("BATON_DATASET_PROCESS") === "0" || !existsSync(child)) return buildSnapshot(datasetId, { shardRows: opts.shardRows });
  const ctx = await buildContext(datasetId);
  if (ctx === null) return;
  // the context already read is passed on, not read again
  if (!(opts.child ?? (await countTraces(ctx.filter, ctx.readable)) >= IN_PROCESS_BELOW)) return buildSnapshot(datasetId, { shardRows: opts.shardRows }, ctx);
  await startBuild(ctx);
  const alive = heartbeat(datasetId);
  try {
    const plans = await planShards(ctx, opts.shardRows);
    const heap = buildHeapMb(await largestTraceEvents(ctx.filter, ctx.readable));
    const started = performance.now();
    const results: ShardResult[] = [];
    const usage = await inChildren(child, datasetId, plans, Math.min(plans.length, opts.processes ?? buildProcesses()), heap, async (result) => {
      results.push(result);
      await recordProgress(datasetId, results);
    });
    await finishBuild(ctx, results);
    console.log(`[baton] snapshot ${datasetId} built in ${((performance.now() - started) / 1000).toFixed(1)} s by ${usage.length} processes, ${plans.length} shards, peak RSS ${Math.max(...usage.map((u) => u.rssMB)).toFixed(0)} MB (each), CPU ${usage.reduce((s, u) => s + u.cpuSeconds, 0).toFixed(1)} s`);
  } catch (error) {
    await failBuild(datasetId, error);
    throw error;
  } finally {
    alive();
  }
}

/** What a child says over its IPC channel. */
export type ChildMessage = { ready: true } | { staged: true } | { result: ShardResult } | { error: string } | { usage: ChildUsage };
/** What the parent says: a shard to build, or that there are no more. */
export type ParentMessage = { shard: ShardPlan } | { done: true };
export interface ChildUsage {
  rssMB: number;
  cpuSeconds: number;
}

/**
 * Builds the shards in `processes` children, handing each the next shard
 * when it reports one staged (its rows computed: it is encoded and written
 * while the next one's are). Resolves with each child's resource use once
 * all exited cleanly; on the first failure (an error a child reports, or a
 * child that dies) kills the others and waits for them to exit before
 * rejecting, so that nothing is written after the caller cleans up.
 */
async function inChildren(child: string, datasetId: number, plans: readonly ShardPlan[], processes: number, heap: number, onResult: (r: ShardResult) => Promise<void>): Promise<ChildUsage[]> {
  let nextShard = 0;
  // the first failure (an object: the closures below set it)
  const failed: { error: Error | null } = { error: null };
  const children: ChildProcess[] = [];
  const fail = (error: Error) => {
    failed.error ??= error;
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  };
  const runs = Array.from({ length: processes }, () => new Promise<ChildUsage | null>((resolve) => {
    let stderr = "";
    let usage: ChildUsage | null = null;
    // results are recorded one after another, in the order they arrive
    let recording = Promise.resolve();
    const worker = spawn(process.execPath, [`--max-old-space-size=${heap}`, `--max-semi-space-size=${SEMI_SPACE_MB}`, "--import", "tsx", "--conditions=react-server", child, String(datasetId)], { stdio: ["ignore", "inherit", "pipe", "ipc"] });
    children.push(worker);
    const give = () => {
      if (failed.error !== null) return;
      const shard = plans[nextShard++];
      try {
        worker.send(shard ? ({ shard } satisfies ParentMessage) : ({ done: true } satisfies ParentMessage));
      } catch {
        // the child is gone: its exit says why
      }
    };
    // passed on as it comes; its end kept to say why the child died
    worker.stderr!.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      stderr = (stderr + chunk.toString("utf8")).slice(-4096);
    });
    worker.on("message", (message: ChildMessage) => {
      // a child asks for the next shard once a shard's rows are staged (it encodes and writes that one meanwhile)
      if ("ready" in message || "staged" in message) give();
      else if ("result" in message) {
        recording = recording.then(() => onResult(message.result)).catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))));
      } else if ("error" in message) fail(new Error(message.error));
      else usage = message.usage;
    });
    worker.once("error", (error) => fail(error));
    // after its last message and its stderr
    worker.once("close", (code, signal) => {
      void recording.then(() => {
        if (code !== 0 && failed.error === null) {
          const why = /heap out of memory/i.test(stderr) ? "its process ran out of memory" : signal ? `its process was stopped (${signal})` : `its process exited with code ${code}`;
          fail(new Error(`${why}; with a heap of ${heap} MB (BATON_DATASET_HEAP_MB raises its base)`));
        }
        resolve(usage);
      });
    });
  }));
  const usage = await Promise.all(runs);
  if (failed.error !== null) throw failed.error;
  return usage.filter((u): u is ChildUsage => u !== null);
}
