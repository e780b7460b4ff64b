import { readFileSync, readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as evaluation from "@/app/api/blame/evaluation/route";
import { pool, prisma } from "@/lib/server/db/client";
import { ingestFormatted } from "@/lib/server/ingest/format-ingest";
import { authRequest, cleanAccounts, makeUser, signIn, type Credentials } from "@/scripts/lib/test-auth";
import { params } from "@/scripts/lib/test-http";
import { boss, stopBoss } from "../jobs/boss";
import type { BlameEvaluationResponse, ScoringStatus } from "./evaluation";
import { runScoring, SCORING_QUEUE, type ScoringJob } from "./scoring";
import { availableParallelism } from "node:os";
import { SECONDS_PER_EVENT } from "@/lib/blame/report";

/** Who&When Algorithm-Generated 1-14 in project `pa`, 15-26 in `pb`: each run with its labelled mistake as decisive error. */
const run = (i: number) => `whowhen-algorithm-generated-${i}`;
const PA = Array.from({ length: 14 }, (_, i) => i + 1);
const PB = Array.from({ length: 12 }, (_, i) => i + 15);

type Answer = (BlameEvaluationResponse & { scoring: ScoringStatus }) | { scoring: ScoringStatus; previous: BlameEvaluationResponse | null };

async function ask(creds: Credentials, query: string): Promise<{ status: number; body: Answer; ms: number }> {
  const started = performance.now();
  const response = await evaluation.GET(authRequest("GET", `/api/blame/evaluation?${query}`, creds), params({}));
  return { status: response.status, body: (await response.json()) as Answer, ms: performance.now() - started };
}

const queuedJobs = async () => (await pool().query<{ data: ScoringJob }>("SELECT data FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry') ORDER BY created_on", [SCORING_QUEUE])).rows.map((r) => r.data);

/** The queued jobs, taken from the queue (as a worker takes them). */
async function takeJobs(): Promise<ScoringJob[]> {
  const jobs = await (await boss()).fetch<ScoringJob>(SCORING_QUEUE, { batchSize: 10 });
  return (jobs ?? []).map((j) => j.data);
}

/** This process's scoring children (lib/server/blame/report-child.ts) alive now. */
function scoringChildren(): number[] {
  return readdirSync("/proc").filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      const ppid = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("report-child");
    } catch {
      return false;
    }
  }).map(Number);
}

async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const state = async (key: string) => (await prisma().blameScoring.findUniqueOrThrow({ where: { key } })).state;

let viewerA: Credentials;
let viewerAB: Credentials;
let viewerB: Credentials;
let adminB: Credentials;

beforeAll(async () => {
  process.env.BATON_BLAME_WORKER = "0"; // jobs are run by the test itself, one at a time, below
  await prisma().trace.deleteMany();
  await prisma().decisiveError.deleteMany();
  await prisma().blameScoring.deleteMany();
  await pool().query("DELETE FROM pgboss.job WHERE name = $1", [SCORING_QUEUE]).catch(() => {});
  for (const i of [...PA, ...PB]) expect((await ingestFormatted(`../shared/data/who_and_when/Algorithm-Generated/${i}.json`, { format: "auto", upsert: false })).ok).toBe(true);
  await makeUser("root", { isAdmin: true });
  viewerA = await signIn(await makeUser("viewer-a", { roles: { pa: "viewer" } }));
  viewerAB = await signIn(await makeUser("viewer-ab", { roles: { pa: "viewer", pb: "viewer" } }));
  viewerB = await signIn(await makeUser("viewer-b", { roles: { pb: "viewer" } }));
  adminB = await signIn(await makeUser("admin-b", { roles: { pb: "admin" } }));
  await pool().query("UPDATE traces SET project_id = (SELECT id FROM projects WHERE name = 'pa') WHERE trace_id = ANY($1)", [PA.map(run)]);
  await pool().query("UPDATE traces SET project_id = (SELECT id FROM projects WHERE name = 'pb') WHERE trace_id = ANY($1)", [PB.map(run)]);
}, 120_000);

afterAll(async () => {
  delete process.env.BATON_BLAME_WORKER;
  await cleanAccounts();
  await stopBoss();
});

describe("GET /api/blame/evaluation: one scoring per labelled set, as a background job", () => {
  it("equal asks from several callers answer at once with the state of one queued scoring", async () => {
    const answers = await Promise.all([ask({}, "project=pa"), ask(viewerA, "project=pa"), ask(viewerAB, "project=pa"), ask(viewerA, "project=pa")]);
    // the estimate grows with the events of the labelled runs, spread over the scoring's threads
    const { rows: [stored] } = await pool().query<{ events: number }>("SELECT sum(event_count)::int AS events FROM traces WHERE trace_id = ANY($1)", [PA.map(run)]);
    const threads = Math.min(Number(process.env.BATON_BLAME_THREADS ?? 2), availableParallelism());
    for (const a of answers) {
      expect(a.status).toBe(202);
      expect(a.ms).toBeLessThan(5_000);
      expect(a.body.scoring).toMatchObject({ state: "queued", progress: 0, traces: 14 });
      expect(a.body.scoring.estimate_seconds).toBe(Math.max(1, Math.round((stored!.events * SECONDS_PER_EVENT) / threads)));
    }
    // one scoring and one job, whoever asked (the key is the labelled set, not the caller)
    expect(await prisma().blameScoring.count()).toBe(1);
    expect(await queuedJobs()).toHaveLength(1);
  });

  it("the job scores once; everyone who may read all of its runs reads the same result; others never see it", async () => {
    const [job] = await takeJobs();
    await runScoring(job!);
    const a = await ask(viewerA, "project=pa");
    const ab = await ask(viewerAB, "project=pa");
    const anonymous = await ask({}, "project=pa");
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ traces: 14, filter: { project: "pa", system: null }, scoring: { state: "done", progress: 1 } });
    expect(ab.body).toEqual(a.body);
    expect(anonymous.body).toEqual(a.body);
    // without public reads, a reader of pb alone asking for pa's runs reads none of them, and nothing of pa's scores
    process.env.BATON_PUBLIC_READ = "0";
    try {
      const b = await ask(viewerB, "project=pa");
      expect(b.status).toBe(200);
      expect(b.body).toMatchObject({ traces: 0, scoring: { state: "done" } });
      expect(JSON.stringify(b.body)).not.toContain(run(1));
      expect((await ask(viewerA, "project=pa")).body).toEqual(a.body);
    } finally {
      delete process.env.BATON_PUBLIC_READ;
    }
    expect(await queuedJobs()).toHaveLength(0);
  }, 120_000);

  it("stored scores that do not parse are never shown: the scoring is failed with the reason, and the log says which", async () => {
    const [row] = (await pool().query<{ key: string; result: unknown }>("SELECT key, result FROM blame_scorings WHERE state = 'done'")).rows;
    await pool().query("UPDATE blame_scorings SET result = '{\"traces\": \"many\"}'::jsonb WHERE key = $1", [row!.key]);
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    try {
      const answer = await ask(viewerA, "project=pa");
      expect(answer.status).toBe(202);
      expect(answer.body).toMatchObject({ scoring: { state: "failed", error: "its stored scores do not parse (see the log)" }, previous: null });
    } finally {
      spy.mockRestore();
      // as it was, for the tests after this one
      await pool().query("UPDATE blame_scorings SET state = 'done', error = NULL, result = $2::jsonb WHERE key = $1", [row!.key, JSON.stringify(row!.result)]);
    }
    expect(logged.some((l) => l.includes(`the stored scores of blame scoring ${row!.key.slice(0, 12)} does not parse ($.`))).toBe(true);
  });

  it("scores at most BATON_BLAME_SCORERS labelled sets at once; a scoring stops, its child killed, when its labelled set changes or a project admin cancels it", async () => {
    // pa's labels change (its earlier scores stay readable meanwhile), pb is asked for: two new scorings
    await prisma().decisiveError.deleteMany({ where: { traceKey: run(14) } });
    const stale = await ask(viewerA, "project=pa");
    expect(stale.status).toBe(202);
    expect(stale.body).toMatchObject({ scoring: { state: "queued", traces: 13 }, previous: { traces: 14 } });
    expect((await ask(viewerB, "project=pb")).status).toBe(202);
    const jobs = await takeJobs();
    expect(jobs.map((j) => j.filter.project).sort()).toEqual(["pa", "pb"]);
    const pa = jobs.find((j) => j.filter.project === "pa")!;
    const pb = jobs.find((j) => j.filter.project === "pb")!;
    let running = 0;
    let mostRunning = 0;
    let mostChildren = 0;
    const watching = setInterval(() => {
      mostChildren = Math.max(mostChildren, scoringChildren().length);
      void prisma().blameScoring.count({ where: { state: "running" } }).then((n) => (mostRunning = Math.max(mostRunning, (running = n))));
    }, 50);
    try {
      const first = runScoring(pa);
      await until("pa's scoring child", async () => scoringChildren().length === 1 && (await state(pa.key)) === "running");
      const second = runScoring(pb);
      await new Promise((r) => setTimeout(r, 1500));
      // one scorer (the default): pb waits for it
      expect(await state(pb.key)).toBe("queued");
      // pa's labelled set changes again: its scoring is superseded, its child killed within a couple of seconds
      await prisma().decisiveError.deleteMany({ where: { traceKey: run(13) } });
      await first;
      const superseded = await prisma().blameScoring.findUniqueOrThrow({ where: { key: pa.key } });
      expect(superseded.state).toBe("cancelled");
      expect(superseded.error).toContain("superseded");
      // pb takes the free scorer; cancelled, it stops too
      await until("pb's scoring child", async () => (await state(pb.key)) === "running" && scoringChildren().length === 1);
      // a viewer may not cancel it; an admin of its project may
      const cancel = (creds: Credentials) => evaluation.DELETE(authRequest("DELETE", "/api/blame/evaluation?project=pb", creds), params({}));
      expect((await cancel(viewerB)).status).toBe(403);
      const cancelled = await cancel(adminB);
      expect(cancelled.status).toBe(200);
      expect(await cancelled.json()).toEqual({ cancelled: true });
      await second;
      await until("no scoring child", () => Promise.resolve(scoringChildren().length === 0), 5_000);
      expect(await prisma().blameScoring.findUniqueOrThrow({ where: { key: pb.key } })).toMatchObject({ state: "cancelled", error: expect.stringContaining("cancelled by admin-b") as unknown });
    } finally {
      clearInterval(watching);
    }
    expect(mostRunning).toBe(1);
    expect(mostChildren).toBe(1);
    expect(running).toBe(0);
    // asked again, a cancelled scoring is queued again
    expect((await ask(viewerB, "project=pb")).body.scoring.state).toBe("queued");
  }, 120_000);
});
