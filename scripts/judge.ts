/**
 * `npm run judge -- <command>`: judges from the command line (docs/judges.md).
 *   run --project P --judge NAME [--system S] [--task T] [--group G] [--queue ID]
 *       [--concurrency N] [--token-budget N] [--time-budget SECONDS] [--batch N]
 *         starts a run and works on it here with a progress bar until it ends
 *   work [--batch N]       a worker only (any number of machines may run one)
 *   status|cancel|resume RUN_ID
 * Exits 1 when a run ends with failed units or is stopped by its budget.
 */
import { parseArgs } from "node:util";
import { Presets, SingleBar } from "cli-progress";
import { runInput } from "@/lib/judges/config";
import { readConfig } from "@/lib/server/config";
import { readyDatabase } from "@/lib/server/db/bootstrap";
import { closeDatabase, prisma } from "@/lib/server/db/client";
import { stopBoss } from "@/lib/server/jobs/boss";
import type { RunStatus } from "@/lib/api/contracts/judges";
import { cancelRun, createRun, resumeRun, runStatus } from "@/lib/server/judges/runs";
import { startJudgeWorker } from "@/lib/server/judges/worker";

const USAGE = "usage: npm run judge -- run --project P --judge NAME [--system S] [--task T] [--group G] [--queue ID] [--concurrency N] [--token-budget N] [--time-budget S] [--batch N] | work [--batch N] | status|cancel|resume RUN_ID";

const options = {
  project: { type: "string" }, judge: { type: "string" }, system: { type: "string" }, task: { type: "string" }, group: { type: "string" },
  queue: { type: "string" }, concurrency: { type: "string" }, "token-budget": { type: "string" }, "time-budget": { type: "string" }, batch: { type: "string", default: "8" },
} as const;

const int = (s: string | undefined) => (s === undefined ? undefined : /^\d+$/.test(s) ? Number(s) : NaN);

async function follow(runId: number): Promise<RunStatus> {
  const bar = new SingleBar({ format: " {bar} {percentage}% | {value}/{total} units | {failed} failed | {tokens} tokens | {state}", hideCursor: true }, Presets.shades_classic);
  let s = await runStatus(runId);
  bar.start(s.total, s.done + s.failed, { failed: s.failed, tokens: 0, state: s.state });
  while (s.state === "running") {
    await new Promise((r) => setTimeout(r, 250));
    s = await runStatus(runId);
    bar.update(s.done + s.failed, { failed: s.failed, tokens: s.tokens_in + s.tokens_out, state: s.state });
  }
  bar.stop();
  return s;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options });
  const [command, arg] = positionals;
  if (!command || !["run", "work", "status", "cancel", "resume"].includes(command)) {
    console.error(USAGE);
    return 2;
  }
  const config = readConfig();
  const db = await readyDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.BATON_DATA_DIR, pgPort: config.BATON_PG_PORT });
  process.env.DATABASE_URL = db.url;
  const batchSize = int(values.batch) ?? 8;
  try {
    if (command === "work") {
      await startJudgeWorker({ batchSize });
      console.log(`judge worker running (batch ${batchSize}); Ctrl-C stops it`);
      await new Promise<void>((resolve) => process.once("SIGINT", resolve));
      return 0;
    }
    let runId: number;
    if (command === "run") {
      const judge = await prisma().judge.findFirst({ where: { name: values.judge ?? "", project: { name: values.project ?? "" } } });
      if (!judge) {
        console.error(`no judge "${values.judge}" in project "${values.project}"\n${USAGE}`);
        return 2;
      }
      const input = runInput.safeParse({
        ...(values.queue !== undefined ? { queue_id: int(values.queue) } : { filter: { system: values.system, task_id: values.task, group_id: values.group } }),
        concurrency: int(values.concurrency), token_budget: int(values["token-budget"]) ?? null, time_budget_seconds: int(values["time-budget"]) ?? null,
      });
      if (!input.success) {
        for (const issue of input.error.issues) console.error(`${issue.path.join(".") || "$"}: ${issue.message}`);
        return 2;
      }
      runId = (await createRun(judge.id, input.data)).id;
    } else {
      runId = int(arg) ?? NaN;
      if (!Number.isSafeInteger(runId)) {
        console.error(USAGE);
        return 2;
      }
      if (command === "status") {
        console.log(JSON.stringify(await runStatus(runId), null, 2));
        return 0;
      }
      if (command === "cancel") {
        console.log(JSON.stringify(await cancelRun(runId), null, 2));
        return 0;
      }
      await resumeRun(runId);
    }
    await startJudgeWorker({ batchSize });
    const s = await follow(runId);
    console.log(`run ${s.id}: ${s.state}, ${s.done} labelled, ${s.failed} failed, ${s.tokens_in} tokens in, ${s.tokens_out} out`);
    return s.failed > 0 || s.state !== "done" ? 1 : 0;
  } finally {
    await stopBoss();
    await closeDatabase();
    if (db.embedded && !db.embedded.reused) await db.embedded.stop();
  }
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
