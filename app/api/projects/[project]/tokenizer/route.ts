import { MAX_TOKENIZER_BYTES, projectTokenizerInput, type ProjectTokenizer } from "@/lib/api/gateway";
import { authorize } from "@/lib/server/auth/access";
import { deleteTokenizer, getTokenizer, putTokenizer } from "@/lib/server/gateway/tokenizers";
import { maxBodyBytes, parseJsonRequest, route } from "@/lib/server/http";
import { projectParam } from "@/lib/server/project-param";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ project: string }> };

/** GET /api/projects/{project}/tokenizer: the project's Hugging Face tokenizer, described (project admin). */
export const GET = route(async (request: Request, { params }: Context) => {
  const project = await projectParam(params);
  await authorize(request, "admin", project);
  const tokenizer: ProjectTokenizer | null = await getTokenizer(project);
  return Response.json({ tokenizer });
});

/** PUT /api/projects/{project}/tokenizer: uploads it (lib/api/gateway.ts projectTokenizerInput; project admin); checked before it is stored. */
export const PUT = route(async (request: Request, { params }: Context) => {
  const project = await projectParam(params);
  await authorize(request, "admin", project);
  const input = await parseJsonRequest(request, projectTokenizerInput, Math.min(MAX_TOKENIZER_BYTES, maxBodyBytes()));
  return Response.json({ tokenizer: await putTokenizer(project, input) });
});

/** DELETE /api/projects/{project}/tokenizer: removes it (409 while the project's gateway takes its ids from it). */
export const DELETE = route(async (request: Request, { params }: Context) => {
  const project = await projectParam(params);
  await authorize(request, "admin", project);
  await deleteTokenizer(project);
  return new Response(null, { status: 204 });
});
