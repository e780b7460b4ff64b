import { createDataset as createContract, listDatasets as listContract } from "@/lib/api/contracts/datasets";
import { readableProjects } from "@/lib/server/auth/access";
import { checkDatasetRequest } from "@/lib/server/datasets/request";
import { snapshotScope } from "@/lib/server/datasets/scope";
import { createDataset, listDatasets } from "@/lib/server/datasets/store";
import { endpoint, reply } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * POST /api/datasets `{name, filter, form, format, method, preset, weights, normalize, judges}`:
 * a signed-in user (or key) who may upload traces (annotator and up) in the
 * filter's project, or in some project without one; the snapshot then holds
 * only traces of the projects where the caller may (401/403 before the body
 * is checked; snapshotScope reads it through the bounded JSON parser). Checks
 * everything (400 with paths, nothing written), then queues the build -> 202
 * with the snapshot; 403 quota_exceeded when the caller's snapshots hold
 * BATON_DATASET_QUOTA_MB or it has BATON_DATASET_PENDING of them waiting or
 * building.
 */
export const POST = endpoint(createContract, {
  ownBody: true,
  handle: async ({ request }) => {
    const { actor, body, projects } = await snapshotScope(request);
    const checked = await checkDatasetRequest(body);
    return reply({ dataset: await createDataset(checked, projects, actor.userId) }, { status: 202 });
  },
});

/** GET /api/datasets: ready snapshots and builds in progress, newest first. */
export const GET = endpoint(listContract, {
  access: (request) => readableProjects(request),
  handle: async ({ access: readable }) => ({ datasets: await listDatasets(readable) }),
});
