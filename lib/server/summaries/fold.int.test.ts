import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orch, rollout } from "@/lib/decisions/fixtures";
import { POST } from "@/app/api/traces/route";
import { POST as annotate } from "@/app/api/traces/[id]/annotations/route";
import { jsonRequest, params } from "@/scripts/lib/test-http";
import { prisma } from "../db/client";
import { pendingRows, startFoldWorker, stopFoldWorker } from "./fold";
import { rebuildSummaries } from "./rebuild";

/*
 * The fold job as the app runs it: label writes through the route ask for a
 * fold, a worker (here in the test's process, as in the background process
 * `npm start` runs) works the queue, and the rows the labels appended to
 * decision_pending go into the summaries, the last label's of a burst too.
 */
const POLICY = "ckpt-fold-job";
const traces = ["fj-1", "fj-2", "fj-3"].map((id, i) =>
  rollout(id, i % 2 === 0, [
    { type: "orchestrator_decision", ...orch, decision: "continue" },
    { type: "aggregate", ...orch },
    { type: "orchestrator_decision", ...orch, decision: "stop", reason: "complete" },
  ], { group: "fj", policy: POLICY }),
);

async function decisionSummaries(): Promise<unknown> {
  const [tallies, groups] = await Promise.all([
    prisma().$queryRaw`SELECT key, traces, n, successes, trim_scale(r_sum)::text AS r_sum FROM decision_tallies WHERE policy_version = ${POLICY} ORDER BY key`,
    prisma().$queryRaw`SELECT key, rows, e1_sum FROM decision_groups WHERE policy_version = ${POLICY} ORDER BY key`,
  ]);
  return { tallies, groups };
}

beforeAll(async () => {
  await prisma().trace.deleteMany({ where: { traceId: { in: traces.map((t) => String(t.trace_id)) } } });
  expect((await POST(jsonRequest("/api/traces", traces), params({}))).status).toBe(201);
  await startFoldWorker();
});

afterAll(async () => {
  await stopFoldWorker();
  await prisma().trace.deleteMany({ where: { traceId: { in: traces.map((t) => String(t.trace_id)) } } });
});

describe("the fold job", () => {
  it("folds what a burst of labels left pending, the last label's too, and the summaries then equal a rebuild", { timeout: 30_000 }, async () => {
    const label = async (id: string, value: number) =>
      expect((await annotate(jsonRequest(`/api/traces/${id}/annotations`, { family: "task_success", value }), params({ id }))).status).toBe(201);
    const folded = async () => {
      let pending = await pendingRows();
      for (let waited = 0; pending > 0 && waited < 20_000; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
        pending = await pendingRows();
      }
      return pending;
    };
    // a burst: the first label asks for a fold at once, the others within the same second
    for (const [i, value] of [0, 1, 0, 1, 1].entries()) await label(`fj-${(i % 3) + 1}`, value);
    expect(await folded()).toBe(0);
    // one more label once that fold is done, usually still within the second of the first ask: only the ask at the
    // second's end (a fold for the burst's last write) folds it
    await label("fj-2", 0);
    expect(await folded()).toBe(0);
    const kept = await decisionSummaries();
    await rebuildSummaries();
    expect(await decisionSummaries()).toEqual(kept);
  });
});
