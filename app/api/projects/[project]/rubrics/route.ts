import { rubricsInput } from "@/lib/rubrics";
import { authorize } from "@/lib/server/auth/access";
import { parseJsonRequest, route } from "@/lib/server/http";
import { projectParam } from "@/lib/server/project-param";
import { projectRubrics, saveRubrics } from "@/lib/server/queries/rubrics";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ project: string }> };

const body = (project: string, r: Awaited<ReturnType<typeof projectRubrics>>) => ({
  project,
  rubrics: Object.values(r.rubrics).map((x) => ({ ...x, custom: r.custom.includes(x.family) })),
});

/** GET /api/projects/{project}/rubrics: what -1, 0 and +1 mean per family in this project (read access). */
export const GET = route(async (request: Request, { params }: Context) => {
  const project = await projectParam(params);
  await authorize(request, "read", project);
  return Response.json(body(project, await projectRubrics(project)));
});

/** PATCH /api/projects/{project}/rubrics `{rubrics: [{family, negative, neutral, positive}], reset: [family]}` (project admin). */
export const PATCH = route(async (request: Request, { params }: Context) => {
  const project = await projectParam(params);
  const actor = await authorize(request, "admin", project);
  const input = await parseJsonRequest(request, rubricsInput);
  return Response.json(body(project, await saveRubrics(project, actor, input)));
});
