import "server-only";
import { permits } from "../auth/policy";
import { currentSession } from "../auth/current";
import { publicReadEnabled } from "../config";

/**
 * Who labels on a page and whether they may: the user the page was drawn
 * for (pending labels are kept under this user), or null with the reason
 * when they can read but not label (a viewer, or nobody signed in).
 */
export async function labelingViewer(project: string): Promise<{ me: { key: string; name: string } | null; cannotLabel: string | null }> {
  const session = await currentSession();
  if (session.open_mode) return { me: { key: "local", name: "local" }, cannotLabel: null };
  const user = session.user;
  if (!user) return { me: null, cannotLabel: "You can read but not label: sign in to label." };
  const subject = { isAdmin: user.is_admin, roles: new Map(user.memberships.map((m) => [m.project, m.role] as const)) };
  if (!permits(subject, "annotate", project, publicReadEnabled())) {
    return { me: null, cannotLabel: `You can read but not label in project "${project}" (your role there is not annotator or admin).` };
  }
  return { me: { key: String(user.id), name: user.name }, cannotLabel: null };
}
