import "server-only";
import { judgePrompts, type ApiJudge, type JudgeInput } from "@/lib/judges/config";
import type { judgePatch } from "@/lib/judges/config";
import type { z } from "zod";
import { prisma } from "../db/client";
import { stored } from "../db/stored";
import { ApiError, notFound } from "../errors";
import { endpointProblem } from "@/lib/judges/endpoint-rules";
import { judgeEndpointPolicy } from "./endpoint";
import { encryptSecret } from "./secret";

/** 400 at $.base_url for an endpoint no judge may call (lib/judges/endpoint-rules.ts); the call itself checks again, resolved. */
function checkBaseUrl(baseUrl: string): void {
  const problem = endpointProblem(baseUrl, judgeEndpointPolicy());
  if (problem !== null) throw new ApiError(400, "invalid_input", `base_url refused: ${problem}`, [{ path: "$.base_url", message: problem }]);
}

/** Judges per project (SPEC.md section 9). The API key is sealed on write and never read back out here. */
type JudgeRow = Awaited<ReturnType<typeof findJudge>>;

export function toApiJudge(j: JudgeRow): ApiJudge {
  return {
    id: j.id, project: j.project.name, name: j.name, base_url: j.baseUrl, model: j.model, has_api_key: j.apiKeyCipher !== null,
    families: j.families, event_types: j.eventTypes, prompts: stored(judgePrompts, j.prompts, `judge ${j.id}: its prompts`), temperature: j.temperature,
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
  checkBaseUrl(input.base_url);
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

/**
 * A changed base_url drops the stored key unless the same patch brings one:
 * the key was given for the old endpoint, and an admin who may not see it
 * must not be able to send it elsewhere.
 */
export async function updateJudge(id: number, patch: z.infer<typeof judgePatch>): Promise<ApiJudge> {
  const current = await findJudge(id);
  if (patch.base_url !== undefined) checkBaseUrl(patch.base_url);
  const moved = patch.base_url !== undefined && patch.base_url !== current.baseUrl;
  const apiKey = patch.api_key !== undefined ? patch.api_key : moved ? null : undefined;
  await prisma().judge.update({
    where: { id },
    data: {
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.base_url !== undefined && { baseUrl: patch.base_url }),
      ...(patch.model !== undefined && { model: patch.model }),
      // undefined keeps the key, null removes it, a string replaces it
      ...(apiKey !== undefined && { apiKeyCipher: apiKey === null ? null : encryptSecret(apiKey) }),
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
