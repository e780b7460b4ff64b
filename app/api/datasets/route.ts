import { readableProjects } from "@/lib/server/auth/access";
import { checkDatasetRequest } from "@/lib/server/datasets/request";
import { createDataset, listDatasets } from "@/lib/server/datasets/store";
import { route } from "@/lib/server/http";
import { invalid } from "@/lib/server/errors";

export const dynamic = "force-dynamic";

/**
 * POST /api/datasets `{name, filter, form, format, method, preset, weights, normalize, judges}`:
 * checks everything (400 with paths, nothing written), then queues the build -> 202 with the snapshot.
 * GET /api/datasets: ready snapshots and builds in progress, newest first.
 */
export const POST = route(async (request: Request) => {
  const readable = await readableProjects(request);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw invalid([{ path: "$", message: "the body must be JSON" }]);
  }
  const checked = await checkDatasetRequest(body);
  return Response.json({ dataset: await createDataset(checked, readable) }, { status: 202 });
});

export const GET = route(async (request: Request) => {
  return Response.json({ datasets: await listDatasets(await readableProjects(request)) });
});
