import type { ObjectMetadataTrace } from "../../trace/types";
import { type EventRef, TraceBuilder } from "../../trace/builder";
import { DEMO_SOURCE } from "../source";
import { Rng, deriveSeed } from "../../util/random";
import { llmTurn, toolChain, toolRound } from "../steps";
import { type RolloutPlan, SQL_ROLLOUTS, SQL_TASK, type WorkerPlan } from "./sql-rollout-plans";

/**
 * Scenario (d): a GRPO group of four rollouts of one text-to-SQL task (same
 * task_id and group_id, policy checkpoint in metadata.policy_version). The
 * rollouts differ in topology and team size; two forget the status = 'paid'
 * filter and fail. Rollout 2 continues to cross-check before it stops.
 */

export const SQL_GROUP_ID = "grpo-step-1840-sql-top-customers";
export const SQL_TASK_ID = "sql-top-customers-2024";

const ORCHESTRATOR = { agent: "orchestrator", role: "orchestrator" } as const;

type Who = { agent: string; role: string };

/** Spawns each worker from `decision`, runs its tool chain, and returns the workers' return events. */
function runWorkers(b: TraceBuilder, rng: Rng, boss: Who, decision: EventRef, workers: readonly WorkerPlan[]): EventRef[] {
  const returnOf = new Map<string, EventRef>();
  return workers.map((worker, i) => {
    const who = { agent: worker.agent, role: worker.role };
    const waitFor = worker.after === undefined ? undefined : returnOf.get(worker.after);
    const spawn = b.add(
      { t: (waitFor === undefined ? b.endOf(decision) : b.endOf(waitFor)) + 0.1 + 0.05 * i, type: "spawn", ...boss, to: worker.agent, content: worker.brief, tokens: rng.int(90, 160) },
      [decision, "spawn"],
      ...(waitFor === undefined ? [] : [[waitFor, "causal"] as [EventRef, "causal"]]),
    );
    const rounds = toolChain(b, rng, who, spawn, "spawn", worker.steps);
    const last = rounds[rounds.length - 1]?.result ?? spawn;
    const ret = llmTurn(
      b,
      rng,
      { t: b.endOf(last) + rng.range(0.4, 1.2), type: "return", ...who, from: worker.agent, to: boss.agent, content: worker.findings, tokens: rng.int(500, 1100) },
      [last, "causal"],
    );
    returnOf.set(worker.agent, ret);
    return ret;
  });
}

/** A sub-lead spawned by the orchestrator runs the workers, merges their results and returns them. */
function runSubLead(b: TraceBuilder, rng: Rng, decision: EventRef, plan: RolloutPlan, subLead: NonNullable<RolloutPlan["subLead"]>): EventRef {
  const lead = { agent: subLead.agent, role: "sub_lead" };
  const spawn = b.add({ t: b.endOf(decision) + 0.1, type: "spawn", ...ORCHESTRATOR, to: lead.agent, content: subLead.brief, tokens: 130 }, [decision, "spawn"]);
  const split = llmTurn(b, rng, { t: b.endOf(spawn) + 0.5, type: "orchestrator_decision", ...lead, decision: "spawn", content: subLead.plan, tokens: 520 }, [spawn, "spawn"]);
  const returns = runWorkers(b, rng, lead, split, plan.workers);
  const merged = llmTurn(
    b,
    rng,
    { t: Math.max(...returns.map((r) => b.endOf(r))) + 0.3, type: "aggregate", ...lead, content: subLead.summary, tokens: 900 },
    ...returns.map((r): [EventRef, "aggregate"] => [r, "aggregate"]),
  );
  return llmTurn(
    b,
    rng,
    { t: b.endOf(merged) + 0.2, type: "return", ...lead, from: lead.agent, to: ORCHESTRATOR.agent, content: subLead.summary, tokens: 400 },
    [merged, "causal"],
  );
}

/** One rollout of the group. */
export function sqlRolloutTrace(plan: RolloutPlan): ObjectMetadataTrace {
  const rng = new Rng(deriveSeed(0x5eed_d, plan.index));
  const b = new TraceBuilder({ source: DEMO_SOURCE });

  const open = llmTurn(b, rng, { t: 0, type: "orchestrator_decision", ...ORCHESTRATOR, decision: plan.subLead ? "delegate" : "spawn", content: plan.opening, tokens: rng.int(400, 700) });
  const returns = plan.subLead ? [runSubLead(b, rng, open, plan, plan.subLead)] : runWorkers(b, rng, ORCHESTRATOR, open, plan.workers);

  const merge = llmTurn(
    b,
    rng,
    { t: Math.max(...returns.map((r) => b.endOf(r))) + 0.3, type: "orchestrator_decision", ...ORCHESTRATOR, decision: "aggregate", content: "All sub-agents returned; writing the answer.", tokens: 220 },
    ...returns.map((r): [EventRef, "causal"] => [r, "causal"]),
  );
  let final = llmTurn(
    b,
    rng,
    { t: b.endOf(merge) + 0.2, type: "aggregate", ...ORCHESTRATOR, content: plan.answer, tokens: rng.int(600, 900) },
    [merge, "causal"],
    ...returns.map((r): [EventRef, "aggregate"] => [r, "aggregate"]),
  );

  if (plan.check) {
    const proceed = llmTurn(b, rng, { t: b.endOf(final) + 0.2, type: "orchestrator_decision", ...ORCHESTRATOR, decision: "continue", content: plan.check.reason, tokens: 260 }, [final, "causal"]);
    const check = toolRound(b, rng, ORCHESTRATOR, b.endOf(proceed) + 0.4, plan.check.step, [proceed, "tool_dependency"]);
    final = llmTurn(b, rng, { t: b.endOf(check.result) + 0.3, type: "aggregate", ...ORCHESTRATOR, content: plan.check.answer, tokens: 700 }, [check.result, "causal"], [final, "aggregate"]);
  }

  llmTurn(
    b,
    rng,
    { t: b.endOf(final) + 0.2, type: "orchestrator_decision", ...ORCHESTRATOR, decision: "stop", reason: plan.stop.reason, content: plan.stop.content, tokens: 140 },
    [final, "causal"],
  );

  return b.build({
    trace_id: `demo-rollout-sql-top-customers-${plan.index}`,
    task_id: SQL_TASK_ID,
    group_id: SQL_GROUP_ID,
    system: "sqlsmith-agents",
    topology: plan.topology,
    rewards: { team: plan.succeed ? 1 : -1 },
    metadata: { run: "grpo-sql-run-7", policy_version: "ckpt-1840", rollout: plan.index, task: SQL_TASK },
  });
}

/** The four rollouts of scenario (d). */
export function sqlRolloutGroup(): ObjectMetadataTrace[] {
  return SQL_ROLLOUTS.map(sqlRolloutTrace);
}
