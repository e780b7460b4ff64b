/**
 * `npm run fuzz [cases]`: the fuzz suite of lib/server/fuzz.int.test.ts with
 * 20,000 cases (or the number given), against the test database of the
 * integration project; prints the summary table (class, cases, passed, 5xx,
 * bad error shape, partial writes).
 */
import { spawnSync } from "node:child_process";

const cases = process.argv[2] ?? "20000";
const result = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--project", "integration", "lib/server/fuzz.int.test.ts"], {
  stdio: "inherit",
  env: { ...process.env, BATON_FUZZ_CASES: cases },
});
process.exit(result.status ?? 1);
