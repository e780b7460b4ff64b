import "server-only";
import { redirect } from "next/navigation";
import { publicReadEnabled } from "../config";
import { currentSession } from "./current";

/**
 * For server-rendered pages: the projects the visitor may read (null = all).
 * With BATON_PUBLIC_READ=0 an anonymous visitor is sent to sign in, and a
 * member sees only the projects of their roles (site admins see all).
 */
export async function pageReadableProjects(path: string): Promise<string[] | null> {
  const session = await currentSession();
  if (session.open_mode || publicReadEnabled()) return null;
  if (!session.user) redirect(`/signin?next=${encodeURIComponent(path)}`);
  return session.user.is_admin ? null : session.user.memberships.map((m) => m.project);
}

/** Sends the visitor away (sign in, or a 404) unless they may read `project`. */
export async function requirePageRead(path: string, project: string): Promise<void> {
  const readable = await pageReadableProjects(path);
  if (readable !== null && !readable.includes(project)) redirect("/");
}
