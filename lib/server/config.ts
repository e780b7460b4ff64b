import { z } from "zod";

/** Baton's configuration, read once from the environment and validated (README "Configuration"). */
const schema = z.object({
  DATABASE_URL: z.string().url().optional(),
  BATON_DATA_DIR: z.string().min(1).default(".baton"),
  BATON_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  BATON_MAX_BODY_MB: z.coerce.number().positive().default(100),
  BATON_DEMO: z.enum(["0", "1"]).default("1"),
});

export type Config = z.infer<typeof schema>;

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== "")));
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}
