import "server-only";
import { spawn } from "node:child_process";
import { parseRunners, runnerEnv, tail, type Runner } from "@/lib/replay/runners";
import { pool } from "../db/client";
import { ApiError } from "../errors";
import { recorderSettled } from "../gateway/recorder";
import { flushRuns } from "../gateway/runs";
import { boss } from "../jobs/boss";
import { runBaseUrl } from "./runs";
import { setting } from "../config";

/**
 * Runs a replay's or fork's program (docs/replay.md "Runners") as a
 * pg-boss job: the operator's command from BATON_REPLAY_RUNNERS, in its own
 * process group, with `OPENAI_BASE_URL` = the run's URL on this server
 * (`BATON_REPLAY_BASE_URL`, e.g. http://127.0.0.1:3000); killed as a group
 * at its time limit; its output kept on the run; the run flushed to its
 * trace when the program ends.
 */
export const REPLAY_QUEUE = "replay-run";

export type RunJob = { project: string; run_key: string };

export function registeredRunners(): Record<string, Runner> {
  const runners = parseRunners(setting("BATON_REPLAY_RUNNERS"));
  if (typeof runners === "string") throw new ApiError(500, "runner_config", runners);
  return runners;
}

/** Checks that a request may name this runner for this project (400 at `$.runner` otherwise). */
export function checkRunner(name: string, project: string): void {
  const runner = registeredRunners()[name];
  const problem = runner === undefined ? `no runner "${name}" is registered (BATON_REPLAY_RUNNERS)` : runner.projects && !runner.projects.includes(project) ? `runner "${name}" is not for project "${project}"` : !setting("BATON_REPLAY_BASE_URL") ? "runners need BATON_REPLAY_BASE_URL (this server's address as the program reaches it)" : null;
  if (problem !== null) throw new ApiError(400, "invalid_input", problem, [{ path: "$.runner", message: problem }]);
}

/** Names of the runners a request in this project may name (none when the configuration is unusable): for the label view's form. */
export function runnerNamesFor(project: string): string[] {
  let runners: Record<string, Runner> | string;
  try {
    if (!setting("BATON_REPLAY_BASE_URL")) return [];
    runners = parseRunners(setting("BATON_REPLAY_RUNNERS"));
  } catch {
    return []; // a configuration the server's start refuses anyway
  }
  if (typeof runners === "string") return [];
  return Object.entries(runners).filter(([, r]) => !r.projects || r.projects.includes(project)).map(([name]) => name).sort();
}

let worker: Promise<string> | null = null;

export async function scheduleRuns(project: string, runner: string, runKeys: readonly string[]): Promise<void> {
  const limit = registeredRunners()[runner]?.time_limit_s ?? 600;
  const b = await boss();
  await b.createQueue(REPLAY_QUEUE);
  ensureWorker();
  for (const key of runKeys) await b.send(REPLAY_QUEUE, { project, run_key: key } satisfies RunJob, { singletonKey: `${project}\n${key}`, retryLimit: 0, expireInSeconds: Math.ceil(limit) + 600 });
}

function ensureWorker(): void {
  if (worker) return;
  worker = (async () => {
    const b = await boss();
    // a few programs at once per process: each may wait on the model for minutes
    return b.work<RunJob>(REPLAY_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
      if (job) await runProgram(job.data);
    });
  })();
  worker.catch((error) => {
    console.error("[baton] replay runner:", error);
    worker = null;
  });
}

export async function stopRunnerWorker(): Promise<void> {
  if (!worker) return;
  const id = await worker.catch(() => null);
  worker = null;
  if (id !== null) await (await boss()).offWork(REPLAY_QUEUE);
}

const KILL_GRACE_MS = 2000;

/** One program run for one run key; never throws (its failure is kept on the run). */
export async function runProgram(job: RunJob): Promise<void> {
  const { rows } = await pool().query<{ project_id: number; runner: string | null }>(
    "SELECT r.project_id, r.runner FROM replay_runs r JOIN projects p ON p.id = r.project_id WHERE p.name = $1 AND r.run_key = $2",
    [job.project, job.run_key],
  );
  const row = rows[0];
  if (!row?.runner) return;
  const set = (state: string, exit: number | null, output: unknown) =>
    pool().query("UPDATE replay_runs SET runner_state = $3, runner_exit = $4, runner_output = $5 WHERE project_id = $1 AND run_key = $2", [row.project_id, job.run_key, state, exit, output === null ? null : JSON.stringify(output)]);
  let runner: Runner | undefined;
  try {
    runner = registeredRunners()[row.runner];
  } catch (error) {
    await set("failed", null, { error: (error as Error).message });
    return;
  }
  const replayBaseUrl = setting("BATON_REPLAY_BASE_URL");
  if (!runner || !replayBaseUrl) {
    await set("failed", null, { error: runner ? "BATON_REPLAY_BASE_URL is not set" : `runner "${row.runner}" is no longer registered` });
    return;
  }
  await set("running", null, null);
  const baseUrl = runBaseUrl(replayBaseUrl.replace(/\/+$/, ""), job.project, job.run_key);
  const env = runnerEnv(runner, process.env, baseUrl, setting("BATON_REPLAY_API_KEY") ?? "baton-replay", job.run_key);
  const result = await run(runner, env);
  // graded by its exit code when the runner says so: the fork's task_success channel (SPEC.md section 4, E1)
  const success = runner.outcome === "exit_code" && result.state === "exited" ? result.exit === 0 : null;
  await set(result.state, result.exit, { stdout: tail(result.stdout), stderr: tail(result.stderr), success, ...(result.error && { error: result.error }) });
  // the program's calls are in: the run becomes its trace now (again, if it was stored while the program ran, so that it carries the grade)
  await recorderSettled();
  await pool().query("UPDATE gateway_runs SET status = 'receiving' WHERE project_id = $1 AND run_key = $2 AND status = 'stored'", [row.project_id, job.run_key]);
  await flushRuns(job.project, job.run_key).catch((error: unknown) => console.error(`[baton] replay run ${job.run_key}: flush failed:`, error));
}

interface RunResult {
  state: "exited" | "failed" | "timed_out";
  exit: number | null;
  stdout: string;
  stderr: string;
  error?: string;
}

function run(runner: Runner, env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    // its own process group (detached), so that the limit ends everything it started
    const child = spawn(runner.argv[0]!, runner.argv.slice(1), { cwd: runner.cwd, env: env as unknown as NodeJS.ProcessEnv, detached: true, stdio: ["ignore", "pipe", "pipe"], shell: false });
    const keep = (text: string, chunk: Buffer) => tail(text + chunk.toString("utf8"), 128 * 1024);
    child.stdout.on("data", (c: Buffer) => (stdout = keep(stdout, c)));
    child.stderr.on("data", (c: Buffer) => (stderr = keep(stderr, c)));
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // the group is gone already
      }
    };
    let hard: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      hard = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
    }, runner.time_limit_s * 1000);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ state: "failed", exit: null, stdout, stderr, error: error.message });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (hard !== undefined) clearTimeout(hard);
      // whatever of its group outlived the program ends with it
      killGroup("SIGKILL");
      resolve({ state: timedOut ? "timed_out" : "exited", exit: code, stdout, stderr });
    });
  });
}
