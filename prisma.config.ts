import { fileURLToPath } from "node:url";
import { defineConfig } from "prisma/config";

// Prisma's CLI downloads a native schema engine before generate/validate;
// offline that download fails. Point it at a stub that explains itself, so
// generate works and `prisma migrate` fails loudly instead of doing nothing.
// Migrations are applied by lib/server/db/migrate.ts (see prisma/README.md).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(new URL("./prisma/schema-engine-stub.sh", import.meta.url));

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/baton" },
});
