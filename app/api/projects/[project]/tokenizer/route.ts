import { deleteTokenizer as deleteContract, getTokenizer as getContract, putTokenizer as putContract } from "@/lib/api/contracts/gateway";
import { MAX_TOKENIZER_BYTES } from "@/lib/api/gateway";
import { authorize } from "@/lib/server/auth/access";
import { endpoint } from "@/lib/server/endpoint";
import { deleteTokenizer, getTokenizer, putTokenizer } from "@/lib/server/gateway/tokenizers";
import { maxBodyBytes } from "@/lib/server/http";
import { projectParam } from "@/lib/server/project-param";

export const dynamic = "force-dynamic";

/** The project of the path (404 when it names none) and its admin. */
async function projectAdmin(request: Request, params: { project: string }): Promise<string> {
  const project = await projectParam(Promise.resolve(params));
  await authorize(request, "admin", project);
  return project;
}

/** GET /api/projects/{project}/tokenizer: the project's Hugging Face tokenizer, described (project admin). */
export const GET = endpoint(getContract, {
  access: projectAdmin,
  handle: async ({ access: project }) => ({ tokenizer: await getTokenizer(project) }),
});

/** PUT /api/projects/{project}/tokenizer: uploads it (lib/api/gateway.ts projectTokenizerInput; project admin); checked before it is stored. */
export const PUT = endpoint(putContract, {
  access: projectAdmin,
  bodyLimit: () => Math.min(MAX_TOKENIZER_BYTES, maxBodyBytes()),
  handle: async ({ body, access: project }) => ({ tokenizer: await putTokenizer(project, body) }),
});

/** DELETE /api/projects/{project}/tokenizer: removes it (409 while the project's gateway takes its ids from it). */
export const DELETE = endpoint(deleteContract, {
  access: projectAdmin,
  handle: async ({ access: project }) => {
    await deleteTokenizer(project);
    return new Response(null, { status: 204 });
  },
});
