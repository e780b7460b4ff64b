import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { orch, rollout } from "@/lib/decisions/fixtures";
import { POST } from "@/app/api/traces/route";
import { jsonRequest, params } from "@/scripts/lib/test-http";
import { pool, prisma } from "../db/client";
import { foldDecisionSummaries, pendingRows } from "./fold";
import { rebuildSummaries } from "./rebuild";

/*
 * Two writers changing rollouts of one group at once. The decision
 * summaries' general path subtracts a group's terms from its cell's sums,
 * then adds them back as they are after the write: the second writer must
 * read the group as the first one left it, or the cell's sums keep the
 * first writer's change twice. The same for the fold of the pending rows
 * that values-only writes append, beside writers of their group and of
 * their trace. Checked against a rebuild from the rows, after a last fold.
 */
const POLICY = "ckpt-concurrent";
const spawns = (id: string, success: boolean | null) =>
  rollout(id, success, [
    { type: "orchestrator_decision", ...orch, decision: "spawn" },
    { type: "spawn", ...orch, to: "w1" },
    { type: "return", agent: "w1", role: "coder", from: "w1", to: "orch" },
    { type: "aggregate", ...orch },
    { type: "orchestrator_decision", ...orch, decision: "stop", reason: "complete" },
  ], { group: "cg", policy: POLICY });
const stays = (id: string, success: boolean | null) =>
  rollout(id, success, [
    { type: "orchestrator_decision", ...orch, decision: "continue" },
    { type: "aggregate", ...orch },
    { type: "orchestrator_decision", ...orch, decision: "stop", reason: "max_turns" },
  ], { group: "cg", policy: POLICY });

/** The decision summaries of the rollouts' cell (sums as text: exact). */
async function kept(): Promise<unknown> {
  const terms = ["spawn", "delegate", "communicate", "aggregate", "stop"].map((k) => `strata_${k}, n1_${k}, n0_${k}, trim_scale(numerator_${k})::text AS numerator_${k}, trim_scale(weight_${k})::text AS weight_${k}, trim_scale(variance_${k})::text AS variance_${k}`);
  const [groups, sums, tallies] = await Promise.all([
    pool().query("SELECT * FROM decision_groups WHERE group_id = 'cg' ORDER BY key"),
    pool().query(`SELECT key, ${terms.join(", ")} FROM decision_group_sums ORDER BY key`),
    pool().query("SELECT key, traces, n, successes, trim_scale(r_sum)::text AS r_sum FROM decision_tallies ORDER BY key"),
  ]);
  return { groups: groups.rows, sums: sums.rows, tallies: tallies.rows };
}

/** The kept summaries, with what is pending folded in, equal a rebuild from the rows (as text, so that a failure shows the rows that differ). */
async function expectRebuilt(): Promise<void> {
  expect((await foldDecisionSummaries()).gaveWay).toBe(false);
  expect(await pendingRows()).toBe(0);
  const before = await kept();
  await rebuildSummaries();
  expect(JSON.stringify(before, null, 1)).toBe(JSON.stringify(await kept(), null, 1));
}

/** Runs `first` and `second` in two transactions, the second started while the first has written and not committed. */
async function overlapping(first: string, second: string): Promise<void> {
  const [a, b] = [await pool().connect(), await pool().connect()];
  try {
    await a.query("BEGIN");
    await b.query("BEGIN");
    await a.query(first);
    const waiting = b.query(second);
    // the second statement reaches whatever it waits for (a row or lock the first holds)
    await new Promise((r) => setTimeout(r, 300));
    await a.query("COMMIT");
    await waiting;
    await b.query("COMMIT");
  } finally {
    a.release();
    b.release();
  }
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
  const traces = [spawns("cg-s1", true), stays("cg-f1", false), spawns("cg-a", null), stays("cg-b", null), spawns("cg-c", true), stays("cg-d", false)];
  expect((await POST(jsonRequest("/api/traces", traces), params({}))).status).toBe(201);
});

afterAll(async () => {
  await prisma().trace.deleteMany();
  await rebuildSummaries();
});

describe("decision summaries under concurrent writers of one group", () => {
  it("two rollouts gaining an E1 at once (the general path)", async () => {
    await overlapping("UPDATE traces SET e1 = 1 WHERE trace_id = 'cg-a'", "UPDATE traces SET e1 = 0 WHERE trace_id = 'cg-b'");
    await expectRebuilt();
  });

  it("one rollout gaining an E1 while another's E1 changes value (the general path beside the values-only one)", async () => {
    await overlapping("UPDATE traces SET e1 = 0 WHERE trace_id = 'cg-c'", "UPDATE traces SET e1 = 1 WHERE trace_id = 'cg-a'");
    await expectRebuilt();
    await overlapping("UPDATE traces SET e1 = 1 WHERE trace_id = 'cg-b'", "UPDATE traces SET e1 = 1 WHERE trace_id = 'cg-d'");
    await expectRebuilt();
  });

  it("values-only changes of two rollouts at once are appended, neither waiting for the other", async () => {
    await overlapping("UPDATE traces SET e1 = 0 WHERE trace_id = 'cg-s1'", "UPDATE traces SET e1 = 1 WHERE trace_id = 'cg-f1'");
    expect(await pendingRows()).toBe(2);
    await expectRebuilt();
  });

  const FOLD = "SELECT baton_decision_fold(NULL, NULL)";
  it("the fold beside a rollout of its group taking the general path, in either order", async () => {
    await pool().query("UPDATE traces SET e1 = 0 WHERE trace_id = 'cg-s1'");
    await overlapping("UPDATE traces SET e1 = 1 WHERE trace_id = 'cg-a'", FOLD);
    await expectRebuilt();
    await pool().query("UPDATE traces SET e1 = 1 WHERE trace_id = 'cg-f1'");
    await overlapping(FOLD, "UPDATE traces SET e1 = 0 WHERE trace_id = 'cg-b'");
    await expectRebuilt();
  });

  it("the fold beside a change that moves the pending trace itself (the general path folds it first), in either order", async () => {
    await pool().query("UPDATE traces SET e1 = 0 WHERE trace_id = 'cg-s1'");
    await overlapping("DELETE FROM traces WHERE trace_id = 'cg-s1'", FOLD);
    await expectRebuilt();
    await pool().query("UPDATE traces SET e1 = 1 WHERE trace_id = 'cg-f1'");
    await overlapping(FOLD, "UPDATE traces SET group_id = 'cg-other' WHERE trace_id = 'cg-f1'");
    await expectRebuilt();
  });

  it("the fold job gives way to a writer that holds its group, and folds once it has committed", async () => {
    await pool().query("UPDATE traces SET e1 = 0 WHERE trace_id = 'cg-s1'");
    const writer = await pool().connect();
    try {
      await writer.query("BEGIN");
      await writer.query("UPDATE traces SET e1 = 1 WHERE trace_id = 'cg-a'");
      expect(await foldDecisionSummaries()).toEqual({ folded: 0, gaveWay: true });
      expect(await pendingRows()).toBe(1);
      await writer.query("COMMIT");
    } finally {
      writer.release();
    }
    expect(await foldDecisionSummaries()).toEqual({ folded: 1, gaveWay: false });
    await expectRebuilt();
  });
});
