import { projectsPermitting, readableProjects } from "@/lib/server/auth/access";
import { deleteDataset, getDataset } from "@/lib/server/datasets/store";
import { notFound } from "@/lib/server/errors";
import { route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** GET /api/datasets/{id}: state, progress, manifest, diff against the previous snapshot of the same filter, files. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  if (!/^\d{1,9}$/.test(id)) throw notFound(`dataset ${JSON.stringify(id.slice(0, 50))}`);
  return Response.json(await getDataset(Number(id), await readableProjects(request)));
});

/** DELETE /api/datasets/{id}: the snapshot and its files, by the account that took it or a site admin (404 for one who may not see it). */
export const DELETE = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  if (!/^\d{1,9}$/.test(id)) throw notFound(`dataset ${JSON.stringify(id.slice(0, 50))}`);
  const readable = await readableProjects(request);
  const { actor, projects } = await projectsPermitting(request, "ingest");
  await deleteDataset(Number(id), readable, projects === null ? null : actor.userId);
  return Response.json({ deleted: Number(id) });
});
