import { judgeInput } from "@/lib/judges/config";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { parseJsonRequest, route } from "@/lib/server/http";
import { createJudge, listJudges } from "@/lib/server/judges/store";

export const dynamic = "force-dynamic";

/** GET /api/judges: the judges of the projects the caller administers (never their API keys). */
export const GET = route(async (request: Request) => {
  await authorize(request, "admin");
  const projects = await readableProjects(request);
  const all = await listJudges(projects);
  const mine = [];
  for (const judge of all) {
    try {
      await authorize(request, "admin", judge.project);
      mine.push(judge);
    } catch {
      /* not an admin of that project */
    }
  }
  return Response.json({ judges: mine });
});

/** POST /api/judges (project admin): a new judge; 201 with the judge (has_api_key, never the key). */
export const POST = route(async (request: Request) => {
  await authorize(request, "admin");
  const input = await parseJsonRequest(request, judgeInput);
  await authorize(request, "admin", input.project);
  return Response.json({ judge: await createJudge(input) }, { status: 201 });
});
