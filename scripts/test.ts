/**
 * `npm test`: the whole check, in order — types, lint, migrations in step
 * with schema.prisma, unit tests, integration tests (real PostgreSQL), and
 * end-to-end tests (real Chromium against a production build).
 * Stops at the first failing step and exits non-zero.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";

const steps: [string, string[]][] = [
  ["typecheck", ["npx", "tsc", "--noEmit"]],
  ["lint", ["npx", "eslint", "--max-warnings", "0", "."]],
  ["migrations match schema.prisma", ["npx", "tsx", "--conditions=react-server", "scripts/make-migration.ts", "--check"]],
  ["unit", ["npx", "vitest", "run", "--project", "unit"]],
  ["integration", ["npx", "vitest", "run", "--project", "integration"]],
  ["e2e", ["npx", "playwright", "test"]],
];

const only = process.argv.slice(2);
for (const [name, [cmd, ...args]] of steps) {
  if (only.length > 0 && !only.some((o) => name.startsWith(o))) continue;
  if (name === "e2e") rmSync(process.env.BATON_E2E_DATA_DIR ?? ".baton-test/e2e", { recursive: true, force: true });
  console.log(`\n=== ${name}: ${[cmd, ...args].join(" ")}`);
  const started = Date.now();
  const result = spawnSync(cmd!, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n=== ${name} FAILED after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`=== ${name} passed in ${seconds}s`);
}
