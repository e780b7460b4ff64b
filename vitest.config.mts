import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { leftOutGlobs } from "./scripts/lib/left-out.mjs";
import { sharedDataExclusions, skipSummary } from "./scripts/lib/shared-data.mjs";

const alias = {
  "@": fileURLToPath(new URL(".", import.meta.url)),
  // `server-only` guards client bundles; in Node tests there is no client bundle to guard.
  "server-only": fileURLToPath(new URL("./scripts/lib/empty.ts", import.meta.url)),
};

const root = fileURLToPath(new URL(".", import.meta.url));
// without ../shared (a clone elsewhere) the tests that read it are left out and counted below; in CI its absence throws here
const needShared = sharedDataExclusions(root, ["lib", "scripts", "app", "components"], (f) => f.endsWith(".test.ts"));
const unitSkipped = needShared.filter((f) => !f.endsWith(".int.test.ts"));
const integrationSkipped = needShared.filter((f) => f.endsWith(".int.test.ts"));
// a second pass over the integration suite (CI's, against another server) may leave files out: comma-separated globs, each checked to name something
const integrationLeftOut = leftOutGlobs(root, process.env.BATON_INTEGRATION_EXCLUDE);

/** Says once, after vitest's own summary, how many test files of the projects it runs were left out for want of ../shared. */
let projectsRun: ReadonlySet<string> | null = null;
const sharedSkipReport = {
  onInit(vitest: { projects: readonly { name: string }[] }) {
    projectsRun = new Set(vitest.projects.map((p) => p.name));
  },
  onTestRunEnd() {
    for (const line of skipSummary({ unit: unitSkipped, integration: integrationSkipped }, projectsRun, process.env.BATON_LIST_SKIPPED === "1")) console.log(line);
  },
};

export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ["default", sharedSkipReport],
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "components/**/*.test.ts"], exclude: ["**/*.int.test.ts", "**/node_modules/**", ...unitSkipped] },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["**/*.int.test.ts"],
          exclude: ["**/node_modules/**", ...integrationSkipped, ...integrationLeftOut],
          globalSetup: ["./scripts/test-db-setup.ts"],
          setupFiles: ["./scripts/test-db-env.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
