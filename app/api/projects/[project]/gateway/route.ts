import { deleteGateway, getGateway, putGateway } from "@/lib/api/contracts/gateway";
import { authorize } from "@/lib/server/auth/access";
import { endpoint } from "@/lib/server/endpoint";
import { deleteUpstream, getUpstream, putUpstream } from "@/lib/server/gateway/upstreams";
import { projectParam } from "@/lib/server/project-param";

export const dynamic = "force-dynamic";

/** The project of the path (404 when it names none) and its admin. */
async function projectAdmin(request: Request, params: { project: string }): Promise<string> {
  const project = await projectParam(Promise.resolve(params));
  await authorize(request, "admin", project);
  return project;
}

/** GET /api/projects/{project}/gateway: the project's upstream model server, without its key (project admin). */
export const GET = endpoint(getGateway, {
  access: projectAdmin,
  handle: async ({ access: project }) => ({ upstream: await getUpstream(project) }),
});

/** PUT /api/projects/{project}/gateway: sets it (lib/api/gateway.ts gatewayUpstreamInput; project admin). */
export const PUT = endpoint(putGateway, {
  access: projectAdmin,
  handle: async ({ body, access: project }) => ({ upstream: await putUpstream(project, body) }),
});

/** DELETE /api/projects/{project}/gateway: removes it; calls are then refused (503) until one is set again. */
export const DELETE = endpoint(deleteGateway, {
  access: projectAdmin,
  handle: async ({ access: project }) => {
    await deleteUpstream(project);
    return new Response(null, { status: 204 });
  },
});
