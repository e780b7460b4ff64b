import "server-only";
import type { Actor } from "../auth/access";
import { projectsPermitting, readableProjects } from "../auth/access";
import { parseJsonRequest } from "../http";
import { z } from "zod";

/**
 * Who may take (or preview) a snapshot, and which projects it then holds:
 * a signed-in user (or key) who may upload traces (annotator and up) in the
 * filter's project, or in some project without one; the snapshot holds only
 * traces of the projects where the caller may both read and upload (401/403
 * before the body is checked, beyond its being JSON).
 */
export async function snapshotScope(request: Request): Promise<{ actor: Actor; body: unknown; projects: string[] | null }> {
  const readable = await readableProjects(request);
  // read like every JSON body: bounded size and depth, text PostgreSQL can store (the full check follows authorization)
  const body = await parseJsonRequest(request, z.unknown());
  const { actor, projects: writable } = await projectsPermitting(request, "ingest", filterProject(body));
  return { actor, body, projects: within(readable, writable) };
}

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
