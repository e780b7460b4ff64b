import "server-only";
import { createHash } from "node:crypto";
import { DEFAULT_CV, orderedEventIds, withJudges, type BlameRanking, type LabelledTrace } from "@/lib/blame";
import { attributionReport, type Report, type ReportInput } from "@/lib/blame/report";
import { judgeMethodName, judgeRanking, type JudgeMode } from "@/lib/blame/judge";
import { SPEC_VERSION } from "@/lib/metrics";
import { pool, prisma } from "../db/client";
import type { BlameEvaluationResponse } from "./evaluation";
import { judgeAnswersOf, judgeStamp, type LabelledRow } from "./labelled";

/**
 * What a scoring computes (the scoring job's work, scoring.ts) and the key
 * it is stored under: apart from evaluation.ts, which queues scorings and
 * reads their results, so that the job does not import what queues it.
 */

/** Each judge method's stored attributions, by trace index of the labelled traces (null where it has none). */
type JudgedRankings = Map<string, (BlameRanking | null)[]>;

export async function judgedRankings(labelled: readonly LabelledTrace[], rows: readonly LabelledRow[]): Promise<JudgedRankings> {
  const stored = await prisma().judgeAttribution.findMany({ where: { traceKey: { in: rows.map((r) => r.trace_id) } }, include: { judge: { select: { name: true } } } });
  const index = new Map(rows.map((r, i) => [r.trace_id, i]));
  const out: JudgedRankings = new Map();
  for (const a of stored) {
    const method = judgeMethodName(a.judge.name, a.mode as JudgeMode);
    const list = out.get(method) ?? rows.map(() => null);
    const i = index.get(a.traceKey)!;
    const input = labelled[i]!.input;
    const step = a.eventId === null ? -1 : orderedEventIds(input).indexOf(a.eventId);
    // a failed reply names nothing: it counts as a miss, not as a skip
    list[i] = step < 0 ? { method, events: [], agents: [] } : judgeRanking(method, input, step, a.reason ?? "");
    out.set(method, list);
  }
  return out;
}

/**
 * The form of a scoring's input and result: a new form is a new key (older results are never read as current). A
 * scoring of runs that judges answered about has its own (`<form>j`): since `learned_judged`, its result holds more.
 */
const SCORING_FORM = 5;

/**
 * The key of a scoring: a hash of what it computes from (the labelled traces as stored, their decisive errors and
 * systems, the judges' attributions of them, the scoring's settings), never of who asks.
 */
export async function scoringKey(rows: readonly LabelledRow[]): Promise<string> {
  const judged = await judgeStamp(rows.map((r) => r.trace_id));
  const h = createHash("sha256");
  h.update(`${SCORING_FORM}${judged.n > 0 ? "j" : ""}\u0001k=${DEFAULT_CV.k},seed=${DEFAULT_CV.seed}\u0001${judged.n}\u0000${judged.latest?.toISOString() ?? ""}\u0001`);
  for (const r of rows) h.update(`${r.id}\u0000${r.trace_id}\u0000${r.system ?? ""}\u0000${r.group_id ?? ""}\u0000${r.event_id}\u0000${r.agent}\u0001`);
  return h.digest("hex");
}

/** Everything the report needs besides the labelled traces, and the response made of its result. */
export async function scoreLabelled(rows: readonly LabelledRow[], given: readonly LabelledTrace[], report: (input: ReportInput) => Report | Promise<Report> = attributionReport): Promise<BlameEvaluationResponse> {
  // the judges' answers about each run, for the methods that read them (learned_judged: scored only where there are some)
  const answers = await judgeAnswersOf(rows.map((r) => r.trace_id));
  const labelled = given.map((t, i) => (answers.has(rows[i]!.trace_id) ? { ...t, input: withJudges(t.input, answers.get(rows[i]!.trace_id)!) } : t));
  const judged = await judgedRankings(labelled, rows);
  const input = { labelled, traceIds: rows.map((r) => r.trace_id), systems: rows.map((r) => r.system), judged: [...judged] };
  const scored = await report(input);
  return {
    version: SPEC_VERSION,
    filter: { project: null, system: null },
    traces: rows.length,
    cv: { k: DEFAULT_CV.k, seed: DEFAULT_CV.seed, by: "trace" },
    best: scored.best,
    methods: scored.methods,
    nested: scored.nested,
    nested_by_task: scored.nested_by_task,
    estimate: scored.estimate,
    by_system: scored.by_system,
    guided: scored.guided,
    agreement: await decisiveAgreement(rows.map((r) => r.trace_id)),
    computed_at: new Date().toISOString(),
  };
}

/** Agreement of decisive errors (SPEC.md section 5) over traces with >= 2 annotators (agent names compared case-insensitively, trimmed). */
export async function decisiveAgreement(traceKeys: readonly string[]): Promise<BlameEvaluationResponse["agreement"]> {
  const { rows } = await pool().query<{ traces: number; same_event: number; same_agent: number }>(
    `SELECT count(*)::int AS traces, count(*) FILTER (WHERE events = 1)::int AS same_event, count(*) FILTER (WHERE agents = 1)::int AS same_agent
     FROM (SELECT trace_key, count(DISTINCT event_id) AS events, count(DISTINCT lower(btrim(agent))) AS agents
           FROM decisive_errors WHERE trace_key = ANY($1::text[]) GROUP BY trace_key HAVING count(*) >= 2) x`,
    [traceKeys],
  );
  const r = rows[0]!;
  return { traces: r.traces, same_event: r.traces > 0 ? r.same_event / r.traces : null, same_agent: r.traces > 0 ? r.same_agent / r.traces : null };
}
