import { authorize } from "@/lib/server/auth/access";
import { ApiError } from "@/lib/server/errors";
import { readBodyLimited, route } from "@/lib/server/http";
import { createPreset, listPresets } from "@/lib/server/queries/presets";

export const dynamic = "force-dynamic";

/** GET /api/presets: the built-in weight presets and the user's own. */
export const GET = route(async () => Response.json({ presets: await listPresets() }));

/** POST /api/presets: `{name, weights: {all eight families}, token_budget?}`. */
export const POST = route(async (request: Request) => {
  await authorize(request, "admin");
  if (!(request.headers.get("content-type") ?? "").startsWith("application/json")) {
    throw new ApiError(415, "unsupported_media_type", "send application/json");
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBodyLimited(request, 1024 * 1024));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(400, "invalid_input", "malformed JSON", [{ path: "$", message: (error as Error).message }]);
  }
  return Response.json({ preset: await createPreset(body) }, { status: 201 });
});
