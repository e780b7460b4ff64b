import { deleteDataset as deleteContract, getDataset as getContract } from "@/lib/api/contracts/datasets";
import { projectsPermitting, readableProjects } from "@/lib/server/auth/access";
import { deleteDataset, getDataset } from "@/lib/server/datasets/store";
import { endpoint } from "@/lib/server/endpoint";
import { notFound } from "@/lib/server/errors";

export const dynamic = "force-dynamic";

/** A dataset id from the path: decimal, else no dataset (404 before access is checked). */
function datasetId(id: string): number {
  if (!/^\d{1,9}$/.test(id)) throw notFound(`dataset ${JSON.stringify(id.slice(0, 50))}`);
  return Number(id);
}

/** GET /api/datasets/{id}: state, progress, manifest, diff against the previous snapshot of the same filter, files. */
export const GET = endpoint(getContract, {
  handle: async ({ request, params }) => {
    const id = datasetId(params.id);
    return getDataset(id, await readableProjects(request));
  },
});

/** DELETE /api/datasets/{id}: the snapshot and its files, by the account that took it or a site admin (404 for one who may not see it). */
export const DELETE = endpoint(deleteContract, {
  handle: async ({ request, params }) => {
    const id = datasetId(params.id);
    const readable = await readableProjects(request);
    const { actor, projects } = await projectsPermitting(request, "ingest");
    await deleteDataset(id, readable, projects === null ? null : actor.userId);
    return { deleted: id };
  },
});
