/**
 * `npm start`: a migrated database (embedded PostgreSQL unless DATABASE_URL
 * is set), demo traces on first start, a production build when there is none
 * or it is stale, then BATON_PROCESSES app processes (default: one per core)
 * serving one port: `next start` in each, as node:cluster workers, so the
 * primary here accepts connections and hands them out in turn. A worker
 * that dies is started again. Stops the workers, then the embedded server,
 * on exit. `--dev` runs the dev server instead (one process, for working
 * on Baton itself).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readConfig } from "@/lib/server/config";
import { readyDatabase } from "@/lib/server/db/bootstrap";
import { SPEC_VERSION } from "@/lib/metrics";
import { recomputeStaleMetrics } from "@/lib/server/compute/persist";
import { recomputeStaleDiagnostics } from "@/lib/server/hacking/store";
import { backfillDecisions } from "@/lib/server/decisions/store";
import { ensureAdminFromEnv, setupLinkIfNeeded } from "@/lib/server/auth/bootstrap";
import { loadDemoIfEmpty } from "./lib/demo-load";
import { isOpenMode } from "@/lib/server/auth/access";

const dev = process.argv.includes("--dev");
const config = readConfig();
const nextBin = path.resolve("node_modules/next/dist/bin/next");

async function main() {
  const db = await readyDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.BATON_DATA_DIR, pgPort: config.BATON_PG_PORT });
  const stopDatabase = async () => {
    await db.embedded?.stop();
  };
  console.log(db.embedded ? `Baton: embedded PostgreSQL in ${path.resolve(config.BATON_DATA_DIR)}${db.embedded.reused ? " (reused a running server)" : ""}` : "Baton: using DATABASE_URL");
  if (db.migrationsApplied.length > 0) console.log(`Baton: applied migrations ${db.migrationsApplied.join(", ")}`);
  process.env.DATABASE_URL = db.url;

  const recomputed = await recomputeStaleMetrics();
  if (recomputed > 0) console.log(`Baton: recomputed the metrics of ${recomputed} trace(s) for ${SPEC_VERSION}`);
  const backfilled = await backfillDecisions();
  if (backfilled > 0) console.log(`Baton: stored the decision features of ${backfilled} trace(s)`);
  const diagnosed = await recomputeStaleDiagnostics();
  if (diagnosed > 0) console.log(`Baton: computed the hacking diagnostics of ${diagnosed} trace(s) stored before them`);

  if (config.BATON_DEMO === "1") {
    const loaded = await loadDemoIfEmpty();
    if (loaded > 0) console.log(`Baton: loaded ${loaded} demo traces`);
  }

  if (!dev && buildIsStale()) {
    console.log("Baton: building (no build yet, or sources changed since the last one)…");
    const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (build.status !== 0) {
      await stopDatabase();
      process.exit(build.status ?? 1);
    }
    writeFileSync(buildFlagsFile(), JSON.stringify(buildFlags()));
  }

  // accounts (README "Accounts and access"): the env admin, else a one-time link while Baton is in open local mode
  const envAdmin = await ensureAdminFromEnv(config);
  if (envAdmin !== "not_configured") console.log(`Baton: admin ${config.BATON_ADMIN_EMAIL} ${envAdmin} (BATON_ADMIN_EMAIL)`);
  const setupLink = config.BATON_ADMIN_EMAIL ? null : await setupLinkIfNeeded(`http://localhost:${config.PORT}`);
  if (setupLink) console.log(`Baton: open local mode (no admin yet). To create the first admin, open ${setupLink}`);

  // open local mode lets anyone who reaches Baton delete: stay on loopback unless the user chose a host
  const host = config.BATON_HOST ?? ((await isOpenMode()) ? "127.0.0.1" : "0.0.0.0");
  console.log(`Baton: listening on http://${host.includes(":") ? `[${host}]` : host}:${config.PORT}${config.BATON_HOST ? " (BATON_HOST)" : host === "127.0.0.1" ? " (loopback only in open local mode; set BATON_HOST=0.0.0.0 to listen on every interface)" : ""}`);
  const processes = dev ? 1 : (config.BATON_PROCESSES ?? availableParallelism());
  const args = [dev ? "dev" : "start", "-p", String(config.PORT), "-H", host];
  const execArgv = process.env.BATON_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", process.env.BATON_CPU_PROF] : [];
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  const app = processes === 1 ? single(args, execArgv, env) : workers(processes, args, execArgv, env);
  console.log(`Baton: ${processes} app process${processes === 1 ? "" : "es"}${processes > 1 ? " on one port (node:cluster)" : ""}${config.BATON_PROCESSES === undefined && !dev ? " (one per core; BATON_PROCESSES)" : ""}`);

  const graphWorker = config.BATON_GRAPH_WORKER === "1" && config.BATON_GRAPH_PREBUILD_EVENTS > 0 ? backgroundProcess(graphWorkerPath, env) : null;

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all([app.stop(), graphWorker?.stop()]);
    await stopDatabase();
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  process.on("SIGHUP", () => void shutdown(0));
  app.onFatal((code) => void shutdown(code));
}

interface App {
  stop(): Promise<void>;
  /** the app cannot go on (it exited, or its workers keep dying at start) */
  onFatal(listener: (code: number) => void): void;
}

/** One process: `next start` (or `next dev`) as a child. */
function single(args: string[], execArgv: string[], env: NodeJS.ProcessEnv): App {
  const child: ChildProcess = spawn(process.execPath, [...execArgv, nextBin, ...args], { stdio: "inherit", env });
  return {
    stop: () => stopChild(child),
    onFatal: (listener) => child.on("exit", (code) => listener(code ?? 0)),
  };
}

/**
 * N `next start` processes as cluster workers: their `listen` goes through
 * this process, which owns the socket and hands each new connection to the
 * next worker. Every worker runs the same build, so any of them can answer
 * any request; their shared state is in PostgreSQL.
 */
function workers(count: number, args: string[], execArgv: string[], env: NodeJS.ProcessEnv): App {
  cluster.setupPrimary({ exec: nextBin, args, execArgv, silent: false });
  let fatal: (code: number) => void = () => {};
  let stopping = false;
  // a worker that dies within 30 s of starting, three times running, means the app cannot start (port taken, broken build)
  let quickDeaths = 0;
  const fork = (index: number) => {
    const worker = cluster.fork({ ...env, BATON_PROCESS_INDEX: String(index) });
    const started = Date.now();
    worker.on("listening", () => {
      if (Date.now() - started < 30_000) quickDeaths = 0;
    });
    worker.on("exit", (code, signal) => {
      if (stopping) return;
      const quick = Date.now() - started < 30_000;
      quickDeaths = quick ? quickDeaths + 1 : 0;
      console.error(`Baton: app process ${worker.process.pid} ended (${signal ?? `exit code ${code}`})${quickDeaths >= 3 ? "; it keeps ending at start, stopping" : ", starting another"}`);
      if (quickDeaths >= 3) return fatal(code || 1);
      fork(index);
    });
  };
  for (let i = 0; i < count; i++) fork(i);
  return {
    stop: async () => {
      stopping = true;
      await Promise.all(Object.values(cluster.workers ?? {}).flatMap((w) => (w ? [stopWorker(w)] : [])));
    },
    onFatal: (listener) => (fatal = listener),
  };
}

/** The process that builds big traces' graph pages in the background (lib/server/graph-pages): from the sources, under tsx. */
const graphWorkerPath = path.resolve("lib/server/graph-pages/worker-child.ts");

/**
 * A background process beside the app processes (the primary here only
 * starts it: its CPU work is the child's). One that ends is started again
 * after 5 s, unless it ends at once three times running.
 */
function backgroundProcess(script: string, env: NodeJS.ProcessEnv): { stop(): Promise<void> } {
  let child: ChildProcess | null = null;
  let stopping = false;
  let quickDeaths = 0;
  const start = () => {
    const started = Date.now();
    const c = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", script], { stdio: ["ignore", "inherit", "inherit", "ipc"], env }); // the channel: it ends when this process does, however it ends
    child = c;
    c.on("exit", (code, signal) => {
      if (stopping) return;
      quickDeaths = Date.now() - started < 30_000 ? quickDeaths + 1 : 0;
      const again = quickDeaths < 3;
      console.error(`Baton: background process ${path.basename(script)} ended (${signal ?? `exit code ${code}`})${again ? ", starting another in 5 s" : "; it keeps ending at start, not starting it again (the first open of a big trace builds its graph pages)"}`);
      if (again) setTimeout(() => !stopping && start(), 5000).unref();
    });
  };
  start();
  return {
    stop: async () => {
      stopping = true;
      if (child) await stopChild(child);
    },
  };
}

/** SIGTERM (Next closes its server), SIGKILL after 10 s. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

function stopWorker(worker: Worker): Promise<void> {
  if (worker.isDead()) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => worker.process.kill("SIGKILL"), 10_000);
    worker.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    worker.process.kill("SIGTERM");
  });
}

/** What a build depends on besides the sources: whether it has the benchmark pages (next.config.mjs pageExtensions). */
const buildFlags = () => ({ bench_pages: process.env.BATON_BENCH_PAGES === "1" });
const buildFlagsFile = () => path.join(process.env.BATON_DIST_DIR || ".next", "baton-build.json");

/** True when there is no production build, it was made with other flags, or a source file is newer than it. */
function buildIsStale(): boolean {
  const buildId = path.join(process.env.BATON_DIST_DIR || ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  if (!existsSync(buildFlagsFile()) || readFileSync(buildFlagsFile(), "utf8") !== JSON.stringify(buildFlags())) return true;
  const built = statSync(buildId).mtimeMs;
  const sources = ["app", "components", "lib", "public", "next.config.mjs", "package.json", "package-lock.json", "postcss.config.mjs", "tsconfig.json"];
  return sources.some((source) => newestMtime(source) > built);
}

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(p)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

main().catch((error: unknown) => {
  // (an embedded PostgreSQL that exits while starting is an Error with its own FATAL lines: lib/server/db/embedded.ts)
  console.error(`Baton failed to start: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
  process.exit(1);
});
