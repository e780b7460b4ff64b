import { readableProjects } from "@/lib/server/auth/access";
import { checkDatasetRequest } from "@/lib/server/datasets/request";
import { snapshotScope } from "@/lib/server/datasets/scope";
import { createDataset, listDatasets } from "@/lib/server/datasets/store";
import { route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/**
 * POST /api/datasets `{name, filter, form, format, method, preset, weights, normalize, judges}`:
 * a signed-in user (or key) who may upload traces (annotator and up) in the
 * filter's project, or in some project without one; the snapshot then holds
 * only traces of the projects where the caller may (401/403 before the body
 * is checked; snapshotScope). Checks everything (400 with paths, nothing
 * written), then queues the build -> 202 with the snapshot; 403
 * quota_exceeded when the caller's snapshots hold BATON_DATASET_QUOTA_MB or
 * it has BATON_DATASET_PENDING of them waiting or building.
 * GET /api/datasets: ready snapshots and builds in progress, newest first.
 */
export const POST = route(async (request: Request) => {
  const { actor, body, projects } = await snapshotScope(request);
  const checked = await checkDatasetRequest(body);
  return Response.json({ dataset: await createDataset(checked, projects, actor.userId) }, { status: 202 });
});

export const GET = route(async (request: Request) => {
  return Response.json({ datasets: await listDatasets(await readableProjects(request)) });
});
