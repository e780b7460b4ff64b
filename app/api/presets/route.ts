import { z } from "zod";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { createPreset as createContract, listPresets as listContract } from "@/lib/api/contracts/workspace";
import { endpoint, reply } from "@/lib/server/endpoint";
import { parseJsonRequest } from "@/lib/server/http";
import { createPreset, listPresets } from "@/lib/server/queries/presets";

export const dynamic = "force-dynamic";

/** GET /api/presets: the built-in weight presets and the user's own. */
export const GET = endpoint(listContract, {
  access: (request) => readableProjects(request),
  handle: async () => ({ presets: await listPresets() }),
});

/** POST /api/presets: `{name, weights: {all eight families}, token_budget?}` (validated with paths by createPreset). */
export const POST = endpoint(createContract, {
  access: (request) => authorize(request, "admin"),
  // read bounded as any JSON body; createPreset checks it against the contract's schema with its own messages
  ownBody: true,
  handle: async ({ request }) => reply({ preset: await createPreset(await parseJsonRequest(request, z.unknown())) }, { status: 201 }),
});
