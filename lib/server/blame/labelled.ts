import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { blameInput, withJudges, type BlameInput, type JudgeAnswer, type LabelledTrace } from "@/lib/blame";
import { judgeMethodName, JUDGE_MODES, type JudgeMode } from "@/lib/blame/judge";
import { pool, prisma } from "../db/client";
import { loadGroup, loadTraceById } from "../queries/load-trace";
import { DECISIVE_SQL } from "../queries/decisive-errors";

/** Which labelled traces: a project (by id or name), a system, and the projects a caller may read. */
export interface LabelledFilter {
  projectId?: number;
  project?: string;
  system?: string;
  /** only these projects (the caller's readable ones); absent: all */
  readable?: readonly string[];
}

export interface LabelledRow {
  id: number;
  trace_id: string;
  system: string | null;
  group_id: string | null;
  event_id: string;
  agent: string;
  /** the trace's events (what a scoring's time grows with) */
  event_count: number;
}

/** The traces under a filter that have a decisive error (SPEC.md section 5), in trace_id order. */
export async function labelledRows(f: LabelledFilter): Promise<LabelledRow[]> {
  const { rows } = await pool().query<LabelledRow>(
    `SELECT t.id, t.trace_id, t.system, t.group_id, d.event_id, d.agent, t.event_count
     FROM traces t JOIN (${DECISIVE_SQL}) d ON d.trace_key = t.trace_id
     WHERE ($1::int IS NULL OR t.project_id = $1)
       AND ($2::text IS NULL OR t.project_id = (SELECT id FROM projects WHERE name = $2))
       AND ($3::text IS NULL OR t.system = $3)
       AND ($4::text[] IS NULL OR t.project_id IN (SELECT id FROM projects WHERE name = ANY($4)))
     ORDER BY t.trace_id`,
    [f.projectId ?? null, f.project ?? null, f.system ?? null, f.readable ?? null],
  );
  return rows;
}

/** What the labels under a filter are: a changed, added or removed decisive error changes it. */
export function fingerprintOf(rows: readonly LabelledRow[]): string {
  const h = createHash("sha256");
  for (const r of rows) h.update(`${r.trace_id}\u0000${r.event_id}\u0000${r.agent}\u0001`);
  return h.digest("hex");
}

/**
 * A stored trace as an attribution method sees it: stripped of labels (lib/blame/input.ts), with its group's other
 * rollouts; with `judgesOf` (the trace's key), with the judges' stored answers about it as well (what a `judged`
 * method reads; a judge itself is asked with the input without them).
 */
export async function blameInputOf(traceDbId: number, groupId: string | null, judgesOf?: string): Promise<BlameInput> {
  const trace = await loadTraceById(traceDbId, { content: "all" });
  const group = groupId ? await loadGroup(groupId) : [];
  const input = blameInput(trace, group);
  return judgesOf === undefined ? input : withJudges(input, (await judgeAnswersOf([judgesOf])).get(judgesOf) ?? []);
}

/** The labelled traces' inputs; with `judges`, each with the judges' stored answers about it (none: the plain input). */
export async function loadLabelled(rows: readonly LabelledRow[], options: { judges?: boolean } = {}): Promise<LabelledTrace[]> {
  const answers = options.judges ? await judgeAnswersOf(rows.map((r) => r.trace_id)) : new Map<string, JudgeAnswer[]>();
  const out: LabelledTrace[] = [];
  for (const r of rows) out.push({ input: withJudges(await blameInputOf(r.id, r.group_id), answers.get(r.trace_id) ?? []), decisive_event_id: r.event_id, decisive_agent: r.agent });
  return out;
}

const storedQuestions = z.array(z.object({ event_id: z.string(), on_track: z.boolean().optional(), decisive: z.boolean().optional() }));

/**
 * Every judge's stored attribution of these traces (judge_attributions), by trace key, in the order of the judges'
 * names, then the modes: the judge's named event (null for a failed reply) and the questions it answered.
 */
export async function judgeAnswersOf(traceKeys: readonly string[]): Promise<Map<string, JudgeAnswer[]>> {
  const out = new Map<string, JudgeAnswer[]>();
  if (traceKeys.length === 0) return out;
  const stored = await prisma().judgeAttribution.findMany({ where: { traceKey: { in: [...traceKeys] } }, include: { judge: { select: { name: true } } } });
  stored.sort((a, b) => (a.judge.name < b.judge.name ? -1 : a.judge.name > b.judge.name ? 1 : a.mode < b.mode ? -1 : a.mode > b.mode ? 1 : 0));
  for (const a of stored) {
    if (!(JUDGE_MODES as readonly string[]).includes(a.mode)) continue;
    const mode = a.mode as JudgeMode;
    const questions = storedQuestions.safeParse(a.questions);
    const list = out.get(a.traceKey) ?? [];
    list.push({ method: judgeMethodName(a.judge.name, mode), mode, event_id: a.eventId, questions: questions.success ? questions.data : [] });
    out.set(a.traceKey, list);
  }
  return out;
}

/** What the judges' stored answers about these traces are: a new or changed answer changes it. */
export async function judgeStamp(traceKeys: readonly string[]): Promise<{ n: number; latest: Date | null }> {
  const { rows } = await pool().query<{ n: number; latest: Date | null }>("SELECT count(*)::int AS n, max(created_at) AS latest FROM judge_attributions WHERE trace_key = ANY($1::text[])", [[...traceKeys]]);
  return rows[0]!;
}

/** fingerprintOf for a method that reads the judges' answers (`judged`): the labels and those answers. */
export async function judgedFingerprintOf(rows: readonly LabelledRow[]): Promise<string> {
  const stamp = await judgeStamp(rows.map((r) => r.trace_id));
  return createHash("sha256").update(`${fingerprintOf(rows)}\u0001${stamp.n}\u0000${stamp.latest?.toISOString() ?? ""}`).digest("hex");
}
