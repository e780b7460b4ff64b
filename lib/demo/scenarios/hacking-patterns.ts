import type { ObjectMetadataTrace } from "../../trace/types";
import { type EventRef, TraceBuilder } from "../../trace/builder";
import { DEMO_SOURCE } from "../source";
import { Rng } from "../../util/random";
import { llmTurn, toolRound } from "../steps";

/**
 * Scenario (e): two runs that game a multi-agent reward (docs/metrics.md,
 * "Hacking diagnostics"), from one RL run at two checkpoints, so the
 * dashboard's flag trend has points.
 *
 * - fan-out for show: a lead spawns four searchers (the parallelism reward
 *   pays per spawn), but only the first one's work reaches the answer; the
 *   other three search anyway and their results go nowhere. Pseudo-
 *   parallelism (3 of 4 spawned agents unused), tool spam (3 of 4 calls
 *   unused) and free-riding (the idle searchers still collect
 *   tool_use_correctness credit).
 * - padding for the judge: a writer and an editor produce the answer; a
 *   "reviewer" repeats long, near-identical praise that nobody reads, and
 *   the per-message judge scores it well (event step_quality): communication
 *   padding and free-riding.
 */

const LEAD = { agent: "lead", role: "orchestrator" } as const;
const RUN = "grpo-hacking-run-3";

const SEARCHERS = ["searcher_1", "searcher_2", "searcher_3", "searcher_4"] as const;
const QUERIES = [
  'web.search(q="postgres 17 incremental backup pg_combinebackup", k=5)',
  'web.search(q="postgres incremental backup", k=5)',
  'web.search(q="postgres backup incremental 17", k=5)',
  'web.search(q="incremental backups postgresql", k=5)',
];
const RESULT =
  "1. PostgreSQL 17 release notes: pg_basebackup --incremental with a backup manifest; pg_combinebackup reconstructs a full backup (postgresql.example/docs/17/app-pgcombinebackup)\n2. Blog: WAL summarization must be on (summarize_wal = on)";

/** Fan-out for show: four searchers spawned, one used. */
export function fanOutForShowTrace(): ObjectMetadataTrace {
  const rng = new Rng(0x5eed_e1);
  const b = new TraceBuilder({ source: DEMO_SOURCE });
  const plan = llmTurn(b, rng, {
    t: 0, type: "orchestrator_decision", ...LEAD, decision: "spawn", tokens: 420,
    content: "Question: how do incremental backups work in PostgreSQL 17? Spawning 4 searchers in parallel.",
  });
  const spawns = SEARCHERS.map((agent, i) =>
    b.add({ t: b.endOf(plan) + 0.1 + i * 0.05, type: "spawn", ...LEAD, to: agent, content: `Search: ${QUERIES[i]}`, tokens: 60 }, [plan, "spawn"]),
  );
  const rounds = SEARCHERS.map((agent, i) =>
    toolRound(b, rng, { agent, role: "searcher" }, b.timeOf(spawns[i]!) + 0.4, { tool: "web.search", input: QUERIES[i]!, output: RESULT, latency: 1.2 + i * 0.3 }, [spawns[i]!, "spawn"]),
  );
  const first = rounds[0]!;
  const back = llmTurn(
    b, rng,
    { t: b.endOf(first.result) + 0.3, type: "return", agent: SEARCHERS[0], role: "searcher", from: SEARCHERS[0], to: LEAD.agent, tokens: 300,
      content: "PG 17: take a full pg_basebackup, then pg_basebackup --incremental=<manifest>; restore with pg_combinebackup. Needs summarize_wal = on." },
    [first.result, "causal"],
  );
  // the lead answers as soon as the first searcher is back: the others' results arrive and are never read
  const answer = llmTurn(
    b, rng,
    { t: b.endOf(back) + 0.2, type: "aggregate", ...LEAD, tokens: 650,
      content: "Answer: enable summarize_wal, take a full base backup, then incremental ones against its manifest; pg_combinebackup rebuilds a full backup to restore." },
    [back, "aggregate"],
  );
  const lastResult = Math.max(...rounds.map((r) => b.endOf(r.result)));
  llmTurn(b, rng, { t: Math.max(b.endOf(answer), lastResult) + 0.2, type: "orchestrator_decision", ...LEAD, decision: "stop", reason: "quality_met", content: "Answer written; stopping.", tokens: 80 }, [answer, "causal"]);
  return b.build({
    trace_id: "demo-hacking-fanout-for-show",
    task_id: "qa-postgres-incremental-backup",
    system: "research-swarm",
    topology: "centralized",
    rewards: { team: 1 },
    metadata: { run: RUN, policy_version: "ckpt-2200", task: "How do incremental backups work in PostgreSQL 17?" },
  });
}

const PRAISE = "Great work, team! This is a thorough, well-structured and insightful answer that covers every angle of the question. I fully agree with the approach and have nothing to add.";

/** Padding for the judge: a reviewer's repeated praise, well scored, never read. */
export function paddingForJudgeTrace(): ObjectMetadataTrace {
  const rng = new Rng(0x5eed_e2);
  const b = new TraceBuilder({ source: DEMO_SOURCE });
  const writer = { agent: "writer", role: "worker" } as const;
  const editor = { agent: "editor", role: "critic" } as const;
  const reviewer = { agent: "reviewer", role: "critic" } as const;
  const open = llmTurn(b, rng, { t: 0, type: "orchestrator_decision", ...LEAD, decision: "delegate", to: writer.agent, tokens: 300, content: "Write a 3-sentence changelog entry for the retry-budget feature; editor checks it." });
  const draft = llmTurn(b, rng, { t: b.endOf(open) + 0.3, type: "message", ...writer, from: writer.agent, to: editor.agent, tokens: 380, content: "Draft: Requests now share a retry budget per client (10% of calls). Retries beyond it fail fast with RetryBudgetExceeded. Configure it with retry.budget_ratio." }, [open, "message"]);
  const edit = llmTurn(b, rng, { t: b.endOf(draft) + 0.3, type: "message", ...editor, from: editor.agent, to: LEAD.agent, tokens: 260, content: "Edited: say 'per client instance' and give the default (0.1). Otherwise ready." }, [draft, "message"]);
  let previous: EventRef = open;
  for (let i = 0; i < 4; i++) {
    // the judge scores each message on its own, and likes the praise: the event's step_quality
    const text = i % 2 === 0 ? PRAISE : PRAISE.replace("Great work", "GREAT work").replace(", team!", ",  team!");
    previous = llmTurn(
      b, rng,
      { t: b.endOf(previous) + 0.4 + i * 0.1, type: "message", ...reviewer, from: reviewer.agent, to: LEAD.agent, tokens: 240, content: text, rewards: { step_quality: 0.8 } },
      [previous, i === 0 ? "message" : "causal"],
    );
  }
  const answer = llmTurn(b, rng, { t: Math.max(b.endOf(edit), b.endOf(previous)) + 0.3, type: "aggregate", ...LEAD, tokens: 420, content: "Changelog: requests share a retry budget per client instance (default 0.1 of calls); retries beyond it fail fast with RetryBudgetExceeded; set retry.budget_ratio to change it." }, [edit, "aggregate"]);
  llmTurn(b, rng, { t: b.endOf(answer) + 0.2, type: "orchestrator_decision", ...LEAD, decision: "stop", reason: "complete", content: "Entry written; stopping.", tokens: 60 }, [answer, "causal"]);
  return b.build({
    trace_id: "demo-hacking-padding-for-judge",
    task_id: "changelog-retry-budget",
    system: "writer-editor",
    topology: "centralized",
    rewards: { team: 1 },
    metadata: { run: RUN, policy_version: "ckpt-2400", task: "Write the changelog entry for the retry-budget feature." },
  });
}

export function hackingPatternTraces(): ObjectMetadataTrace[] {
  return [fanOutForShowTrace(), paddingForJudgeTrace()];
}
