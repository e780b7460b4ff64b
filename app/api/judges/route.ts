import { createJudge as createContract, listJudges as listContract } from "@/lib/api/contracts/judges";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { endpoint, reply } from "@/lib/server/endpoint";
import { createJudge, listJudges } from "@/lib/server/judges/store";

export const dynamic = "force-dynamic";

/** GET /api/judges: the judges of the projects the caller administers (never their API keys). */
export const GET = endpoint(listContract, {
  access: (request) => authorize(request, "admin"),
  handle: async ({ request }) => {
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
    return { judges: mine };
  },
});

/** POST /api/judges (project admin): a new judge; 201 with the judge (has_api_key, never the key). */
export const POST = endpoint(createContract, {
  // an admin somewhere before the body is read; of the body's project after
  access: (request) => authorize(request, "admin"),
  handle: async ({ request, body: input }) => {
    await authorize(request, "admin", input.project);
    return reply({ judge: await createJudge(input) }, { status: 201 });
  },
});
