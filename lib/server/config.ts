import { z } from "zod";
import { parseRunners } from "@/lib/replay/runners";

/** Baton's configuration, read once from the environment and validated (README "Configuration"). */
const schema = z.object({
  DATABASE_URL: z.string().url().optional(),
  // read-only standbys (docs/deployment.md "Read replicas"): one or more connection strings, comma-separated
  DATABASE_READ_URL: z.string().trim().max(8000).refine((v) => v.split(",").every((u) => u.trim() === "" || URL.canParse(u.trim())), "must be connection URLs, comma-separated").optional(),
  // a standby further behind the primary than this is skipped
  BATON_REPLICA_MAX_LAG_MB: z.coerce.number().min(0).max(1_000_000).default(16),
  // a standby whose data is older than this (replay stuck behind, however few bytes) is skipped
  BATON_REPLICA_MAX_LAG_S: z.coerce.number().min(0).max(86_400).default(10),
  // app processes `npm start` runs on one port (node:cluster); default: the machine's cores
  BATON_PROCESSES: z.coerce.number().int().min(1).max(256).optional(),
  BATON_DATA_DIR: z.string().min(1).default(".baton"),
  BATON_PG_PORT: z.coerce.number().int().min(1).max(65535).default(24329),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // the address to listen on; unset: 127.0.0.1 while Baton is in open local mode (anyone who reaches it may delete), else 0.0.0.0
  BATON_HOST: z.string().trim().min(1).max(255).optional(),
  // host names Baton is served under (proxy.ts, lib/api/request-origin.ts); IP addresses and localhost always
  BATON_ALLOWED_HOSTS: z.string().trim().max(4000).optional(),
  BATON_MAX_BODY_MB: z.coerce.number().positive().default(100),
  BATON_DEMO: z.enum(["0", "1"]).default("1"),
  // accounts (README "Accounts and access"): the first site admin, made or updated at start
  BATON_ADMIN_EMAIL: z.string().trim().toLowerCase().pipe(z.email("must be an email address")).optional(),
  BATON_ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").max(256).optional(),
  // once an admin exists, may anonymous visitors read? (writes always need a session or a key)
  BATON_PUBLIC_READ: z.enum(["0", "1"]).default("1"),
  // OTLP receiver (docs/otlp.md): the Bearer token POST /api/otel/v1/* needs while no admin exists
  BATON_INGEST_TOKEN: z.string().trim().min(16, "must be at least 16 characters").optional(),
  // attribution scorings running at once across all app processes (lib/server/blame/scoring.ts)
  BATON_BLAME_SCORERS: z.coerce.number().int().min(1).max(64).default(1),
  // threads one attribution scoring computes its parts in (lib/server/blame/report-threads.ts)
  BATON_BLAME_THREADS: z.coerce.number().int().min(1).max(64).default(2),
  // OTLP receiver: a trace is finalised after this many seconds without new spans
  BATON_OTEL_IDLE_S: z.coerce.number().positive().max(86_400).default(30),
  // judges and the gateway's upstreams: may they call loopback addresses (a model server on this machine)? Off by default: their replies are shown to their users
  BATON_ALLOW_LOOPBACK: z.enum(["0", "1"]).default("0"),
  // connections in each process's PostgreSQL pool
  BATON_DB_POOL: z.coerce.number().int().min(1).max(1000).default(10),
  // encrypts judges' and upstreams' API keys at rest; unset, a random one is kept in <BATON_DATA_DIR>/secret
  BATON_SECRET: z.string().min(1).max(4096).optional(),
  // background workers this process runs ("0": none; another process runs them)
  BATON_JUDGE_WORKER: z.enum(["0", "1"]).default("1"),
  BATON_BLAME_WORKER: z.enum(["0", "1"]).default("1"),
  BATON_CHECK_OUTPUT: z.enum(["0", "1"]).default("0"),
  BATON_DATASET_WORKER: z.enum(["0", "1"]).default("1"),
  // the graph view's pages of a trace of at least this many events are built in the background after ingest (0: never; lib/server/graph-pages)
  BATON_GRAPH_PREBUILD_EVENTS: z.coerce.number().int().min(0).max(1_000_000_000).default(5000),
  // "0": `npm start` runs no process building them (another Baton's, on the same database, may)
  BATON_GRAPH_WORKER: z.enum(["0", "1"]).default("1"),
  // judges (docs/judges.md): host names they may call, retries, time limits and sizes
  BATON_JUDGE_HOSTS: z.string().trim().max(4000).optional(),
  BATON_JUDGE_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(4),
  BATON_JUDGE_BACKOFF_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
  BATON_JUDGE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  BATON_JUDGE_MAX_REPLY_BYTES: z.coerce.number().int().min(1024).max(1024 * 1024 * 1024).default(1024 * 1024),
  BATON_JUDGE_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1024).default(16),
  BATON_JUDGE_BATCH: z.coerce.number().int().min(1).max(1000).default(8),
  BATON_JUDGE_LEASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  // the recording gateway: a run becomes its trace this many seconds after its last call
  BATON_GATEWAY_IDLE_S: z.coerce.number().positive().max(86_400).default(30),
  // dataset snapshots (docs/train-with-baton.md): child processes, their heap, and each account's quota
  BATON_DATASET_PROCESS: z.enum(["0", "1"]).default("1"),
  BATON_DATASET_PROCESSES: z.coerce.number().int().min(1).max(64).optional(),
  BATON_DATASET_HEAP_MB: z.coerce.number().int().min(1).max(16_384).default(320),
  BATON_DATASET_QUOTA_MB: z.coerce.number().positive().max(1e9).default(2048),
  BATON_DATASET_PENDING: z.coerce.number().int().min(1).max(10_000).default(3),
  // big exports at once per process, and how many may wait for a slot
  BATON_EXPORT_SLOTS: z.coerce.number().int().min(1).max(64).default(2),
  BATON_EXPORT_QUEUE: z.coerce.number().int().min(0).max(100_000).default(16),
  // builds: the benchmark pages, the build directory, CPU profiles
  BATON_BENCH_PAGES: z.enum(["0", "1"]).default("0"),
  BATON_DIST_DIR: z.string().trim().min(1).max(1000).default(".next"),
  BATON_CPU_PROF: z.string().trim().min(1).max(1000).optional(),
  // replays and forks (docs/replay.md): the operator's runners (JSON), and this server's address as their programs reach it
  BATON_REPLAY_RUNNERS: z.string().max(1_000_000).optional().superRefine((v, ctx) => {
    const runners = parseRunners(v);
    if (typeof runners === "string") ctx.addIssue({ code: "custom", message: runners });
  }),
  BATON_REPLAY_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  // the key a runner's program sends as OPENAI_API_KEY (an ingest key once accounts exist)
  BATON_REPLAY_API_KEY: z.string().min(1).max(1000).optional(),
}).refine((c) => (c.BATON_ADMIN_EMAIL === undefined) === (c.BATON_ADMIN_PASSWORD === undefined), {
  message: "set both BATON_ADMIN_EMAIL and BATON_ADMIN_PASSWORD, or neither",
  path: ["BATON_ADMIN_PASSWORD"],
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

export type Setting = keyof Config;

/**
 * One setting, read now (for settings a process reads when it needs them;
 * the whole configuration was validated at start, so a bad value never gets
 * this far in a running Baton, and a test may change one between calls).
 */
export function setting<K extends Setting>(key: K, env: NodeJS.ProcessEnv = process.env): Config[K] {
  return schema.shape[key].parse(env[key] || undefined) as Config[K];
}

/** Every setting's name (README "Configuration" lists each; a test holds them together). */
export const SETTINGS = Object.keys(schema.shape) as Setting[];

/** BATON_PUBLIC_READ alone, for per-request checks (the whole configuration was validated at start). */
export function publicReadEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return schema.shape.BATON_PUBLIC_READ.parse(env.BATON_PUBLIC_READ || undefined) === "1";
}

/** The OTLP receiver's settings, for per-request use (the whole configuration was validated at start). */
export function otelConfig(env: NodeJS.ProcessEnv = process.env): { ingestToken: string | undefined; idleSeconds: number } {
  const shape = schema.shape;
  return {
    ingestToken: shape.BATON_INGEST_TOKEN.parse(env.BATON_INGEST_TOKEN || undefined),
    idleSeconds: shape.BATON_OTEL_IDLE_S.parse(env.BATON_OTEL_IDLE_S || undefined),
  };
}
