/**
 * `npm run fuzz [cases]`: the fuzz suite of lib/server/fuzz.int.test.ts with
 * 20,000 cases (or the number given), against the test database of the
 * integration project, twice: calling the route handlers in process, then
 * over HTTP to a production Baton on the same database (through Next, its
 * proxy and its body handling). Prints each pass's summary table (class,
 * cases, passed, 5xx, bad error shape, partial writes).
 */
import { spawnSync } from "node:child_process";

const cases = process.argv[2] ?? "20000";
let status = 0;
for (const http of ["0", "1"]) {
  const result = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--project", "integration", "lib/server/fuzz.int.test.ts"], {
    stdio: "inherit",
    env: { ...process.env, BATON_FUZZ_CASES: cases, BATON_FUZZ_HTTP: http },
  });
  status ||= result.status ?? 1;
}
process.exit(status);
