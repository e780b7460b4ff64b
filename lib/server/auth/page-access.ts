import "server-only";
import { notFound, redirect } from "next/navigation";
import type { ApiSession } from "@/lib/api/auth";
import { isStorableText } from "@/lib/api/text";
import { publicReadEnabled } from "../config";
import { prisma } from "../db/client";
import { receivingState } from "../otel/receiving";
import { currentSession } from "./current";

/**
 * The read policy of lib/server/auth/access.ts for server-rendered pages
 * (which see a session cookie, never an API key). The `...For` functions
 * take the session so that the access matrix test can run them without a
 * request; pages call the wrappers below.
 */
export function readableForSession(session: ApiSession, path: string): string[] | null {
  if (session.open_mode || publicReadEnabled()) return null;
  // before anything about the requested thing is looked at: the redirect must not depend on whether it exists
  if (!session.user) redirect(`/signin?next=${encodeURIComponent(path)}`);
  return session.user.is_admin ? null : session.user.memberships.map((m) => m.project);
}

/** A 404 for an unknown thing (`project` null) and for one in a project the visitor may not read alike. */
export function requireReadFor(session: ApiSession, path: string, project: string | null): void {
  const readable = readableForSession(session, path);
  if (project === null || (readable !== null && !readable.includes(project))) notFound();
}

/**
 * A trace's pages (their layout, above any loading boundary, so that nothing
 * has streamed yet): a private trace and an unknown id get the same answer,
 * sign in for an anonymous visitor (asked before the id is looked up), a 404
 * for anyone who may not read its project. An OTLP trace still arriving
 * belongs to the default project.
 */
export async function requireTraceReadFor(session: ApiSession, path: string, traceId: string | null): Promise<void> {
  const readable = readableForSession(session, path);
  const project = await traceProject(traceId);
  if (project === null || (readable !== null && !readable.includes(project))) notFound();
}

async function traceProject(traceId: string | null): Promise<string | null> {
  // malformed %-escapes (null), U+0000 or a lone surrogate cannot be a stored id (and would make PostgreSQL fail)
  if (traceId === null || !isStorableText(traceId)) return null;
  const stored = await prisma().trace.findUnique({ where: { traceId }, select: { project: { select: { name: true } } } });
  if (stored !== null) return stored.project.name;
  return (await receivingState(traceId)) === null ? null : "default";
}

/** Pages that change things for a project admin (a new queue lists projects and people): admin somewhere, or a 404. */
export function requireProjectAdminFor(session: ApiSession, path: string): void {
  if (session.open_mode) return;
  if (!session.user) redirect(`/signin?next=${encodeURIComponent(path)}`);
  if (!session.user.is_admin && !session.user.memberships.some((m) => m.role === "admin")) notFound();
}

/**
 * A page of one thing that only its project's admins manage (a judge run):
 * admin of `project` (site admins; anyone in open local mode), else the 404
 * of an unknown thing (`project` null); anonymous visitors sign in first,
 * before anything about the thing is looked at. Public read changes nothing.
 */
export function requireProjectAdminOfFor(session: ApiSession, path: string, project: string | null): void {
  if (!session.open_mode && !session.user) redirect(`/signin?next=${encodeURIComponent(path)}`);
  if (project === null) notFound();
  if (session.open_mode || session.user!.is_admin) return;
  if (!session.user!.memberships.some((m) => m.project === project && m.role === "admin")) notFound();
}

/** The projects the visitor may read (null = all); anonymous visitors without public read are sent to sign in. */
export async function pageReadableProjects(path: string): Promise<string[] | null> {
  return readableForSession(await currentSession(), path);
}

/** Renders only for a visitor who may read `project` (null: the thing is unknown); else sign in, or a 404. */
export async function requirePageRead(path: string, project: string | null): Promise<void> {
  requireReadFor(await currentSession(), path, project);
}

export async function requireTracePageRead(path: string, traceId: string | null): Promise<void> {
  await requireTraceReadFor(await currentSession(), path, traceId);
}

export async function requirePageProjectAdmin(path: string): Promise<void> {
  requireProjectAdminFor(await currentSession(), path);
}

export async function requirePageProjectAdminOf(path: string, project: string | null): Promise<void> {
  requireProjectAdminOfFor(await currentSession(), path, project);
}
