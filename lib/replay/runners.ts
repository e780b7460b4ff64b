import { z } from "zod";

/**
 * Runners (docs/replay.md "Runners"): commands the server's operator
 * registers in `BATON_REPLAY_RUNNERS` (JSON), which Baton runs once per
 * replay or fork with `OPENAI_BASE_URL` set to the fork's run URL. A
 * request names a runner, never a command, argument, directory or
 * environment value: who may start processes on the server is decided
 * where the server is configured, not by a web account.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const runnerSchema = z.strictObject({
  /** the program and its arguments, run without a shell */
  argv: z.array(z.string().min(1).max(4096)).min(1).max(256),
  /** the working directory (absolute) */
  cwd: z.string().min(1).max(4096).refine((p) => p.startsWith("/"), "an absolute path"),
  /** names of Baton's own environment variables handed to the program (values never stored or shown) */
  env: z.array(z.string().regex(NAME, "an environment variable name").max(256)).max(128).default([]),
  /** wall-clock limit: the process group is sent SIGTERM, then SIGKILL 2 s later */
  time_limit_s: z.number().positive().max(82_800).default(600),
  /** `exit_code`: exit 0 is a success, anything else a failure (the fork's task_success channel); `none`: graded elsewhere */
  outcome: z.enum(["exit_code", "none"]).default("none"),
  /** projects allowed to use it (default: all) */
  projects: z.array(z.string().min(1).max(512)).optional(),
});
export type Runner = z.infer<typeof runnerSchema>;

export const runnersSchema = z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "a runner name: letters, digits, _ . - (at most 64)"), runnerSchema);

/** The registered runners, or the problem with the configuration as text. */
export function parseRunners(raw: string | undefined): Record<string, Runner> | string {
  if (raw === undefined || raw.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return `BATON_REPLAY_RUNNERS is not JSON: ${(error as Error).message}`;
  }
  const parsed = runnersSchema.safeParse(json);
  if (!parsed.success) return `BATON_REPLAY_RUNNERS: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`;
  return parsed.data;
}

/** The environment a runner's process gets: only the named variables, then Baton's own. */
export function runnerEnv(runner: Runner, from: NodeJS.ProcessEnv, baseUrl: string, apiKey: string, runKey: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of runner.env) if (from[name] !== undefined) env[name] = from[name];
  return { ...env, OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: apiKey, BATON_RUN_KEY: runKey };
}

/** The last `limit` bytes of a text (a program's output is kept bounded). */
export function tail(text: string, limit = 64 * 1024): string {
  const bytes = Buffer.from(text, "utf8");
  return bytes.length <= limit ? text : `…${bytes.subarray(bytes.length - limit).toString("utf8")}`;
}
