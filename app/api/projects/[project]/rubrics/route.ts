import { getRubrics, setRubrics } from "@/lib/api/contracts/projects";
import { authorize } from "@/lib/server/auth/access";
import { endpoint } from "@/lib/server/endpoint";
import { projectParam } from "@/lib/server/project-param";
import { projectRubrics, saveRubrics } from "@/lib/server/queries/rubrics";

export const dynamic = "force-dynamic";

const body = (project: string, r: Awaited<ReturnType<typeof projectRubrics>>) => ({
  project,
  rubrics: Object.values(r.rubrics).map((x) => ({ ...x, custom: r.custom.includes(x.family) })),
});

/** GET /api/projects/{project}/rubrics: what -1, 0 and +1 mean per family in this project (read access). */
export const GET = endpoint(getRubrics, {
  access: async (request, params) => {
    const project = await projectParam(Promise.resolve(params));
    await authorize(request, "read", project);
    return project;
  },
  handle: async ({ access: project }) => body(project, await projectRubrics(project)),
});

/** PATCH /api/projects/{project}/rubrics `{rubrics: [{family, negative, neutral, positive}], reset: [family]}` (project admin). */
export const PATCH = endpoint(setRubrics, {
  access: async (request, params) => {
    const project = await projectParam(Promise.resolve(params));
    return { project, actor: await authorize(request, "admin", project) };
  },
  handle: async ({ body: input, access: { project, actor } }) => body(project, await saveRubrics(project, actor, input)),
});
