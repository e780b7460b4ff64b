import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = {
  "@": fileURLToPath(new URL(".", import.meta.url)),
  // `server-only` guards client bundles; in Node tests there is no client bundle to guard.
  "server-only": fileURLToPath(new URL("./scripts/lib/empty.ts", import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["lib/**/*.test.ts", "scripts/**/*.test.ts"], exclude: ["**/*.int.test.ts", "**/node_modules/**"] },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["**/*.int.test.ts"],
          exclude: ["**/node_modules/**"],
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
