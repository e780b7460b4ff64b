import { graderFieldsInput, storedGraderFields } from "@/lib/annotate/grader-fields";
import { authorize } from "@/lib/server/auth/access";
import { prisma } from "@/lib/server/db/client";
import { ApiError } from "@/lib/server/errors";
import { parseJsonRequest, route } from "@/lib/server/http";
import { projectParam } from "@/lib/server/project-param";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ project: string }> };

async function stored(project: string) {
  const row = await prisma().project.findUnique({ where: { name: project }, select: { graderFields: true } });
  if (!row) throw new ApiError(404, "not_found", "no such project");
  return { project, fields: storedGraderFields(row.graderFields) };
}

/** GET /api/projects/{project}/grader-fields: the metadata fields graders of a whole trace see after its task definition (read access). */
export const GET = route(async (request: Request, { params }: Context) => {
  const project = await projectParam(params);
  await authorize(request, "read", project);
  return Response.json(await stored(project));
});

/** PATCH /api/projects/{project}/grader-fields `{fields: [{path, label?}]}`: replaces the list (project admin). */
export const PATCH = route(async (request: Request, { params }: Context) => {
  const project = await projectParam(params);
  await authorize(request, "admin", project);
  const { fields } = await parseJsonRequest(request, graderFieldsInput);
  await stored(project);
  await prisma().project.update({ where: { name: project }, data: { graderFields: fields } });
  return Response.json(await stored(project));
});
