/**
 * A snapshot build in a process of its own (spawned by build-process.ts
 * under tsx, with a heap sized to the largest trace): builds the snapshot
 * whose id is the first argument and exits 0, or 1 when the build failed
 * (buildSnapshot has then marked it failed and removed its partial shards).
 */
import { closeDatabase } from "../db/client";
import { onPrimary } from "../db/read";
import { buildSnapshot } from "./build";

const id = Number(process.argv[2]);
const started = performance.now();
onPrimary(() => buildSnapshot(id))
  .then(() => closeDatabase())
  .then(
    () => {
      const usage = process.resourceUsage();
      const cpu = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
      console.log(`[baton] snapshot ${id} built in ${((performance.now() - started) / 1000).toFixed(1)} s, peak RSS ${(usage.maxRSS / 1024).toFixed(0)} MB, CPU ${cpu.toFixed(1)} s`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(`[baton] snapshot ${id}:`, error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
