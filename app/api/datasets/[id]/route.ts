import { readableProjects } from "@/lib/server/auth/access";
import { getDataset } from "@/lib/server/datasets/store";
import { notFound } from "@/lib/server/errors";
import { route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** GET /api/datasets/{id}: state, progress, manifest, diff against the previous snapshot of the same filter, files. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  if (!/^\d{1,9}$/.test(id)) throw notFound(`dataset ${JSON.stringify(id.slice(0, 50))}`);
  return Response.json(await getDataset(Number(id), await readableProjects(request)));
});
