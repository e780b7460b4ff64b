import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { expandInputs, ingestFormatted } from "./format-ingest";

/** Real files from shared/data (read in place), one per format. */
const DATA = "../shared/data";
const SAMPLES = {
  whowhen: `${DATA}/who_and_when/Algorithm-Generated/1.json`,
  marble: `${DATA}/multiagentbench_marble/E_COMMERCE_MISSING_INDEXES_RESULT.json`,
  taubench: `${DATA}/tau_bench/gpt-4o-airline.json`,
  chatdev: `${DATA}/chatdev_warehouse/Gomoku_HumanAgentInteraction_20230920135038`,
  agentops: `${DATA}/agentops_crewai_ibm/agent_ops_traces.json`,
} as const;

const run = promisify(execFile);

/** `npm run ingest -- ...` against the test database. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/ingest.ts", ...args], {
      env: { ...process.env, DATABASE_URL: inject("databaseUrl") },
    });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout, err: e.stderr };
  }
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
});

async function eventsOfType(traceId: string): Promise<Record<string, number>> {
  const rows = await prisma().event.groupBy({ by: ["type"], where: { trace: { traceId } }, _count: { _all: true } });
  return Object.fromEntries(rows.map((r) => [r.type, r._count._all]));
}

describe("ingestFormatted on the real datasets", () => {
  it("stores one real file of each format, detected by content, with its counts", async () => {
    const outcomes = await Promise.all(Object.values(SAMPLES).map((input) => ingestFormatted(input, { format: "auto", upsert: false })));
    for (const o of outcomes) expect(o.problems, o.file).toEqual([]);
    expect(outcomes.map((o) => o.traces.length)).toEqual([1, 2, 200, 1, 1]);
    expect(await prisma().trace.count()).toBe(205);

    expect(await eventsOfType("whowhen-algorithm-generated-1")).toEqual({ tool_call: 2, tool_result: 2, message: 1, aggregate: 1 });
    expect(await eventsOfType("chatdev-gomoku-humanagentinteraction-20230920135038")).toMatchObject({ human_intervention: 3, message: 28, aggregate: 14 });
    expect(await eventsOfType("agentops-b520ab60214d54b570cf701c7ad28faf")).toEqual({ orchestrator_decision: 1, spawn: 2, return: 2, aggregate: 1 });

    const tau = await prisma().trace.findMany({ where: { groupId: { startsWith: "taubench-" } }, select: { e1: true, groupId: true } });
    expect(tau.filter((t) => t.e1 === 1)).toHaveLength(84);
    expect(new Set(tau.map((t) => t.groupId)).size).toBe(50);

    const whowhen = await prisma().trace.findUniqueOrThrow({ where: { traceId: "whowhen-algorithm-generated-1" }, select: { e1: true, metadata: true } });
    expect(whowhen.e1).toBe(0);
    expect(whowhen.metadata).toMatchObject({ ground_truth: { mistake_agent: "Excel_Expert", mistake_step: 0, mistake_event_id: "e1" } });
    const mistake = await prisma().event.findFirstOrThrow({ where: { trace: { traceId: "whowhen-algorithm-generated-1" }, eventId: "e1" }, select: { extra: true } });
    expect(mistake.extra).toMatchObject({ mistake: true, step: 0 });

    const marble = await prisma().trace.findMany({ where: { traceId: { startsWith: "marble-" } }, select: { topology: true, metadata: true } });
    expect(marble.map((t) => [t.topology, (t.metadata as { topology_detail: string }).topology_detail])).toEqual([["centralized", "star"], ["centralized", "star"]]);
  });

  it("stores nothing from a file that is not the format asked for, and says which format it expected", async () => {
    const outcome = await ingestFormatted(SAMPLES.taubench, { format: "whowhen", upsert: false });
    expect(outcome.ok).toBe(false);
    expect(outcome.problems).toHaveLength(1);
    expect(outcome.problems[0]!.message).toMatch(/is not a Who&When run .*it looks like a tau-bench trajectory file/);
    expect(await prisma().trace.count()).toBe(0);
  });

  it("is all or nothing per file: a trace_id already stored fails the whole file", async () => {
    expect((await ingestFormatted(SAMPLES.whowhen, { format: "whowhen", upsert: false })).ok).toBe(true);
    const again = await ingestFormatted(SAMPLES.whowhen, { format: "auto", upsert: false });
    expect(again.ok).toBe(false);
    expect(again.problems[0]!.message).toContain('trace_id "whowhen-algorithm-generated-1" exists');
    expect((await ingestFormatted(SAMPLES.whowhen, { format: "auto", upsert: true })).ok).toBe(true);
    expect(await prisma().trace.count()).toBe(1);
  });

  it("keeps today's path for Baton files", async () => {
    const outcome = await ingestFormatted("../shared/trace-schema/example_trace.json", { format: "auto", upsert: false });
    expect(outcome.traces.map((t) => [t.trace_id, t.events])).toEqual([["demo-trace-001", 8]]);
  });

  it("lists a ChatDev run folder as one input and never its config files", async () => {
    const inputs = await expandInputs(DATA, "auto");
    expect(inputs.filter((p) => p.includes("chatdev_warehouse"))).toHaveLength(12);
    expect(inputs.filter((p) => p.endsWith("Config.json"))).toEqual([]);
    expect(inputs).toHaveLength(159);
    expect(await expandInputs(`${DATA}/chatdev_warehouse`, "chatdev")).toHaveLength(12);
  });

  it("is wired into the CLI as --format", async () => {
    const ok = await cli("--format", "chatdev", SAMPLES.chatdev, SAMPLES.agentops);
    expect(ok.out).toMatch(/ok\s+\S+Gomoku_HumanAgentInteraction_20230920135038: 1 trace\(s\), 90 events/);
    expect(ok.out).toMatch(/FAILED\s+\S+agent_ops_traces\.json: nothing stored; 1 problem\(s\)/);
    expect(ok.out).toContain("is not a ChatDev run folder or log (timestamped [YYYY-DD-MM HH:MM:SS INFO] lines): it looks like an AgentOps span-tree export");
    expect(ok.code).toBe(1);
    const auto = await cli(SAMPLES.agentops);
    expect(auto.code).toBe(0);
    expect(auto.out).toContain("1 file(s) ok, 0 failed");
    const bad = await cli("--format", "csv", SAMPLES.agentops);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--format auto|baton|whowhen|marble|taubench|chatdev|agentops");
  });
});
