import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import type { JudgeSelection } from "@/lib/judges/selection";

/**
 * E1 of a trace row `t` in SQL for a judge selection (SPEC.md section 5,
 * lib/metrics/e1.ts): judge task_success values on the whole trace count
 * only where the trace has no human trace-level task_success label and no
 * adjudication; then they decide like people (majority at 0.5, a tie is
 * null) before the reported value. Otherwise the stored E1 (people, else
 * reported) stands. Only judges of the trace's own project count.
 */
export function e1WithJudges(selection: JudgeSelection): { join: Prisma.Sql; e1: Prisma.Sql } {
  if (selection.kind === "none") return { join: Prisma.empty, e1: Prisma.sql`t.e1` };
  const names = selection.kind === "names" ? Prisma.sql`AND j.name = ANY(${selection.names})` : Prisma.empty;
  const join = Prisma.sql`LEFT JOIN LATERAL (
      SELECT count(*) FILTER (WHERE jl.value >= 0.5) AS yes, count(*) FILTER (WHERE jl.value < 0.5) AS no
      FROM judge_labels jl JOIN judges j ON j.id = jl.judge_id
      WHERE jl.trace_key = t.trace_id AND jl.event_id = '' AND jl.family = 'task_success' AND jl.current AND jl.value IS NOT NULL
        AND j.project_id = t.project_id ${names}
        AND NOT EXISTS (SELECT 1 FROM annotations a WHERE a.trace_key = t.trace_id AND a.event_id = '' AND a.family = 'task_success')
        AND NOT EXISTS (SELECT 1 FROM adjudications ad WHERE ad.trace_key = t.trace_id AND ad.event_id = '' AND ad.family = 'task_success')
    ) jd ON true`;
  const e1 = Prisma.sql`(CASE WHEN jd.yes + jd.no = 0 THEN t.e1 WHEN jd.yes > jd.no THEN 1 WHEN jd.no > jd.yes THEN 0 END)`;
  return { join, e1 };
}
