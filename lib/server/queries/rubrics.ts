import "server-only";
import { DEFAULT_RUBRICS, mergeRubrics, type Rubric, type RubricsInput } from "@/lib/rubrics";
import type { Family } from "@/lib/trace/types";
import type { Actor } from "../auth/access";
import { prisma } from "../db/client";
import { notFound } from "../errors";

/** A project's rubrics (lib/rubrics defaults with the project's own texts on top), and which families are the project's own. */
export async function projectRubrics(project: string): Promise<{ rubrics: Record<Family, Rubric>; custom: Family[] }> {
  const rows = await prisma().rubric.findMany({ where: { project: { name: project } } });
  const own = rows.filter((r) => r.family in DEFAULT_RUBRICS).map((r) => ({ family: r.family as Family, negative: r.negative, neutral: r.neutral, positive: r.positive }));
  return { rubrics: mergeRubrics(own), custom: own.map((r) => r.family) };
}

/** Replaces the given families' texts and resets others to the defaults, in one transaction. */
export async function saveRubrics(project: string, actor: Actor, input: RubricsInput) {
  const row = await prisma().project.findUnique({ where: { name: project } });
  if (!row) throw notFound(`project "${project}"`);
  await prisma().$transaction([
    prisma().rubric.deleteMany({ where: { projectId: row.id, family: { in: input.reset } } }),
    ...input.rubrics.map((r) =>
      prisma().rubric.upsert({
        where: { projectId_family: { projectId: row.id, family: r.family } },
        create: { projectId: row.id, ...r, updatedById: actor.userId || null },
        update: { negative: r.negative, neutral: r.neutral, positive: r.positive, updatedById: actor.userId || null },
      }),
    ),
  ]);
  return projectRubrics(project);
}
