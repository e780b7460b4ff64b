import { projectsPermitting, readableProjects } from "@/lib/server/auth/access";
import { checkDatasetRequest } from "@/lib/server/datasets/request";
import { createDataset, listDatasets } from "@/lib/server/datasets/store";
import { z } from "zod";
import { parseJsonRequest, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/**
 * POST /api/datasets `{name, filter, form, format, method, preset, weights, normalize, judges}`:
 * a signed-in user (or key) who may upload traces (annotator and up) in the
 * filter's project, or in some project without one; the snapshot then holds
 * only traces of the projects where the caller may (401/403 before the body
 * is checked). Checks everything (400 with paths, nothing written), then
 * queues the build -> 202 with the snapshot; 403 quota_exceeded when the
 * caller's snapshots hold BATON_DATASET_QUOTA_MB or it has
 * BATON_DATASET_PENDING of them waiting or building.
 * GET /api/datasets: ready snapshots and builds in progress, newest first.
 */
export const POST = route(async (request: Request) => {
  const readable = await readableProjects(request);
  // read like every JSON body: bounded size and depth, text PostgreSQL can store (the full check follows authorization)
  const body = await parseJsonRequest(request, z.unknown());
  const { actor, projects: writable } = await projectsPermitting(request, "ingest", filterProject(body));
  const checked = await checkDatasetRequest(body);
  return Response.json({ dataset: await createDataset(checked, within(readable, writable), actor.userId) }, { status: 202 });
});

export const GET = route(async (request: Request) => {
  return Response.json({ datasets: await listDatasets(await readableProjects(request)) });
});

/** The project the body's filter names, if it names one as text (the full check comes after authorization). */
function filterProject(body: unknown): string | undefined {
  const filter = typeof body === "object" && body !== null ? (body as { filter?: unknown }).filter : undefined;
  const project = typeof filter === "object" && filter !== null ? (filter as { project?: unknown }).project : undefined;
  return typeof project === "string" && project !== "" ? project : undefined;
}

/** Projects in both lists (null: all). */
function within(a: string[] | null, b: string[] | null): string[] | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.filter((p) => b.includes(p));
}
