import { getGraderFields, setGraderFields } from "@/lib/api/contracts/projects";
import { storedGraderFields } from "@/lib/annotate/grader-fields";
import { authorize } from "@/lib/server/auth/access";
import { prisma } from "@/lib/server/db/client";
import { endpoint } from "@/lib/server/endpoint";
import { ApiError } from "@/lib/server/errors";
import { projectParam } from "@/lib/server/project-param";

export const dynamic = "force-dynamic";

async function stored(project: string) {
  const row = await prisma().project.findUnique({ where: { name: project }, select: { graderFields: true } });
  if (!row) throw new ApiError(404, "not_found", "no such project");
  return { project, fields: storedGraderFields(row.graderFields) };
}

/** The project of the path (404 when it names none) and the caller's right to `action` in it. */
const projectWith = (action: "read" | "admin") => async (request: Request, params: { project: string }) => {
  const project = await projectParam(Promise.resolve(params));
  await authorize(request, action, project);
  return project;
};

/** GET /api/projects/{project}/grader-fields: the metadata fields graders of a whole trace see after its task definition (read access). */
export const GET = endpoint(getGraderFields, {
  access: projectWith("read"),
  handle: ({ access: project }) => stored(project),
});

/** PATCH /api/projects/{project}/grader-fields `{fields: [{path, label?}]}`: replaces the list (project admin). */
export const PATCH = endpoint(setGraderFields, {
  access: projectWith("admin"),
  handle: async ({ body: { fields }, access: project }) => {
    await stored(project);
    await prisma().project.update({ where: { name: project }, data: { graderFields: fields } });
    return stored(project);
  },
});
