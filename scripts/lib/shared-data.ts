import { existsSync } from "node:fs";

let warned = false;

/**
 * Whether `../shared` (the real third-party traces and the paper's example,
 * kept outside the repository) is beside this checkout. Tests that read it
 * skip without it (`it.skipIf(!sharedDataAvailable())`: counted as skipped
 * in the summary, with this reason printed once); in CI, where it is always
 * present, its absence is a failure, never a skip.
 */
export function sharedDataAvailable(): boolean {
  if (existsSync("../shared/data") && existsSync("../shared/trace-schema")) return true;
  if (process.env.CI === "true" || process.env.CI === "1") throw new Error("../shared (real traces in ../shared/data, the paper's example in ../shared/trace-schema) is missing; in CI it must be present");
  if (!warned) {
    warned = true;
    console.warn("../shared is absent: the tests that read real traces from ../shared/data or ../shared/trace-schema are skipped (see the skipped count)");
  }
  return false;
}
