import "server-only";
import type { ApiJudge, JudgeInput } from "@/lib/judges/config";
import type { judgePatch } from "@/lib/judges/config";
import type { z } from "zod";
import { prisma } from "../db/client";
import { ApiError, notFound } from "../errors";
import { encryptSecret } from "./secret";

/** Judges per project (SPEC.md section 9). The API key is sealed on write and never read back out here. */
type JudgeRow = Awaited<ReturnType<typeof findJudge>>;

export function toApiJudge(j: JudgeRow): ApiJudge {
  return {
    id: j.id, project: j.project.name, name: j.name, base_url: j.baseUrl, model: j.model, has_api_key: j.apiKeyCipher !== null,
    families: j.families, event_types: j.eventTypes, prompts: j.prompts as Record<string, string>, temperature: j.temperature,
    max_tokens: j.maxTokens, json_schema: j.jsonSchema, created_at: j.createdAt.toISOString(),
  };
}

export async function findJudge(id: number) {
  const judge = await prisma().judge.findUnique({ where: { id }, include: { project: { select: { name: true } } } });
  if (!judge) throw notFound(`judge ${id}`);
  return judge;
}

export async function listJudges(projects: string[] | null): Promise<ApiJudge[]> {
  const rows = await prisma().judge.findMany({
    where: projects === null ? {} : { project: { name: { in: projects } } },
    include: { project: { select: { name: true } } },
    orderBy: [{ projectId: "asc" }, { name: "asc" }],
  });
  return rows.map(toApiJudge);
}

export async function createJudge(input: JudgeInput): Promise<ApiJudge> {
  const project = await prisma().project.findUnique({ where: { name: input.project } });
  if (!project) throw new ApiError(400, "invalid_input", `no project "${input.project}"`, [{ path: "$.project", message: "unknown project" }]);
  if (await prisma().judge.findUnique({ where: { projectId_name: { projectId: project.id, name: input.name } } })) {
    throw new ApiError(409, "conflict", `a judge named "${input.name}" exists in ${input.project}`, [{ path: "$.name", message: "taken" }]);
  }
  const row = await prisma().judge.create({
    data: {
      projectId: project.id, name: input.name, baseUrl: input.base_url, model: input.model,
      apiKeyCipher: input.api_key ? encryptSecret(input.api_key) : null, families: input.families, eventTypes: input.event_types,
      prompts: input.prompts, temperature: input.temperature, maxTokens: input.max_tokens, jsonSchema: input.json_schema,
    },
  });
  return toApiJudge(await findJudge(row.id));
}

export async function updateJudge(id: number, patch: z.infer<typeof judgePatch>): Promise<ApiJudge> {
  await prisma().judge.update({
    where: { id },
    data: {
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.base_url !== undefined && { baseUrl: patch.base_url }),
      ...(patch.model !== undefined && { model: patch.model }),
      // undefined keeps the key, null removes it, a string replaces it
      ...(patch.api_key !== undefined && { apiKeyCipher: patch.api_key === null ? null : encryptSecret(patch.api_key) }),
      ...(patch.families !== undefined && { families: patch.families }),
      ...(patch.event_types !== undefined && { eventTypes: patch.event_types }),
      ...(patch.prompts !== undefined && { prompts: patch.prompts }),
      ...(patch.temperature !== undefined && { temperature: patch.temperature }),
      ...(patch.max_tokens !== undefined && { maxTokens: patch.max_tokens }),
      ...(patch.json_schema !== undefined && { jsonSchema: patch.json_schema }),
    },
  });
  return toApiJudge(await findJudge(id));
}

export async function deleteJudge(id: number): Promise<void> {
  await prisma().judge.delete({ where: { id } });
}
