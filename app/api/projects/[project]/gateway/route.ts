import { gatewayUpstreamInput, type GatewayUpstream } from "@/lib/api/gateway";
import { authorize } from "@/lib/server/auth/access";
import { deleteUpstream, getUpstream, putUpstream } from "@/lib/server/gateway/upstreams";
import { parseJsonRequest, route } from "@/lib/server/http";
import { projectParam } from "@/lib/server/project-param";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ project: string }> };

/** GET /api/projects/{project}/gateway: the project's upstream model server, without its key (project admin). */
export const GET = route(async (request: Request, { params }: Context) => {
  const project = await projectParam(params);
  await authorize(request, "admin", project);
  const upstream: GatewayUpstream | null = await getUpstream(project);
  return Response.json({ upstream });
});

/** PUT /api/projects/{project}/gateway: sets it (lib/api/gateway.ts gatewayUpstreamInput; project admin). */
export const PUT = route(async (request: Request, { params }: Context) => {
  const project = await projectParam(params);
  await authorize(request, "admin", project);
  const input = await parseJsonRequest(request, gatewayUpstreamInput);
  return Response.json({ upstream: await putUpstream(project, input) });
});

/** DELETE /api/projects/{project}/gateway: removes it; calls are then refused (503) until one is set again. */
export const DELETE = route(async (request: Request, { params }: Context) => {
  const project = await projectParam(params);
  await authorize(request, "admin", project);
  await deleteUpstream(project);
  return new Response(null, { status: 204 });
});
