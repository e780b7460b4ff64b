import "server-only";
import type { AgreementGroup } from "@/lib/api/contracts/judges";
import { judgeAgreement, type Agreement } from "@/lib/judges/agreement";
import type { JudgeValueRow } from "@/lib/judges/merge";
import type { JudgeSelection } from "@/lib/judges/selection";
import { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "../db/client";

/** The current judge values of a trace for a selection (none: no query at all). */
export async function judgeValues(traceKey: string, selection: JudgeSelection): Promise<(JudgeValueRow & { at: Date })[]> {
  if (selection.kind === "none") return [];
  const rows = await prisma().judgeLabel.findMany({
    where: {
      traceKey, current: true,
      // only the judges of the trace's own project
      judge: { project: { traces: { some: { traceId: traceKey } } }, ...(selection.kind === "names" && { name: { in: selection.names } }) },
    },
    select: { eventId: true, family: true, value: true, createdAt: true },
  });
  return rows.filter((r) => r.value !== null).map((r) => ({ event_id: r.eventId || null, family: r.family, value: r.value!, at: r.createdAt }));
}

export interface AgreementFilter {
  project?: string;
  judge?: string;
  family?: string;
  /** group by system and metadata.policy_version too (else one group per judge and family) */
  by?: "judge" | "system" | "policy_version";
}

/**
 * Agreement of each judge with people (SPEC.md section 5) per family and,
 * on request, per system or policy_version (`metadata.policy_version`):
 * over units both the judge and people labelled, an adjudicated value
 * standing for the people when there is one.
 */
export async function agreement(filter: AgreementFilter, readable: string[] | null): Promise<AgreementGroup[]> {
  const where: Prisma.Sql[] = [Prisma.sql`jl.current`];
  if (filter.project) where.push(Prisma.sql`p.name = ${filter.project}`);
  if (readable) where.push(Prisma.sql`p.name = ANY(${readable})`);
  if (filter.judge) where.push(Prisma.sql`j.name = ${filter.judge}`);
  if (filter.family) where.push(Prisma.sql`jl.family = ${filter.family}`);
  const rows = await prisma().$queryRaw<{ judge: string; family: string; project: string; system: string | null; policy_version: string | null; judge_value: number; humans: number[] }[]>`
    SELECT j.name AS judge, jl.family, p.name AS project, t.system, t.metadata->>'policy_version' AS policy_version, jl.value AS judge_value,
      COALESCE((SELECT ARRAY[ad.value] FROM adjudications ad WHERE ad.trace_key = jl.trace_key AND ad.event_id = jl.event_id AND ad.family = jl.family),
               (SELECT array_agg(a.value) FROM annotations a WHERE a.trace_key = jl.trace_key AND a.event_id = jl.event_id AND a.family = jl.family)) AS humans
    FROM judge_labels jl JOIN judges j ON j.id = jl.judge_id JOIN projects p ON p.id = j.project_id JOIN traces t ON t.trace_id = jl.trace_key
    WHERE ${Prisma.join(where, " AND ")}`;
  const groups = new Map<string, { head: Omit<AgreementGroup, keyof Agreement>; units: { judge: number; humans: number[] }[] }>();
  for (const r of rows) {
    if (r.humans === null || r.humans.length === 0) continue;
    const system = filter.by === "system" ? r.system : null;
    const policy = filter.by === "policy_version" ? r.policy_version : null;
    const key = JSON.stringify([r.project, r.judge, r.family, system, policy]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { head: { judge: r.judge, family: r.family, project: r.project, system, policy_version: policy }, units: [] }));
    g.units.push({ judge: r.judge_value, humans: r.humans });
  }
  return [...groups.values()].map((g) => ({ ...g.head, ...judgeAgreement(g.units) }));
}
