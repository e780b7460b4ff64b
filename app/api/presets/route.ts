import { z } from "zod";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { parseJsonRequest, route } from "@/lib/server/http";
import { createPreset, listPresets } from "@/lib/server/queries/presets";

export const dynamic = "force-dynamic";

/** GET /api/presets: the built-in weight presets and the user's own. */
export const GET = route(async (request: Request) => {
  await readableProjects(request);
  return Response.json({ presets: await listPresets() });
});

/** POST /api/presets: `{name, weights: {all eight families}, token_budget?}` (validated with paths by createPreset). */
export const POST = route(async (request: Request) => {
  await authorize(request, "admin");
  const body = await parseJsonRequest(request, z.unknown());
  return Response.json({ preset: await createPreset(body) }, { status: 201 });
});
