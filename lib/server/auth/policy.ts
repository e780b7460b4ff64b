import type { Role, Scope } from "@/lib/api/auth";

/**
 * Who may do what, as a pure function (the matrix of docs/api.md "Accounts
 * and access"). `access.ts` resolves the request's credentials into a
 * `Subject`; this decides.
 */
export type Action = "read" | "ingest" | "annotate" | "admin";

export interface Subject {
  /** site admin: every action in every project */
  isAdmin: boolean;
  /** role per project name */
  roles: ReadonlyMap<string, Role>;
  /** set for API keys: the key's scopes (a key never does more than its user either) */
  scopes?: readonly Scope[];
}

const RANK: Record<Role, number> = { viewer: 1, annotator: 2, admin: 3 };
const NEEDED: Record<Action, Role> = { read: "viewer", ingest: "annotator", annotate: "annotator", admin: "admin" };
const SCOPE_OF: Record<Action, Scope | null> = { read: "read", ingest: "ingest", annotate: "annotate", admin: null };

/**
 * True when `subject` may do `action` in `project`. Without a project the
 * role is needed in at least one project (e.g. presets, which are global,
 * need project admin somewhere or site admin). `publicRead` lets everyone
 * (with a key: a `read`-scoped one) read every project.
 */
export function permits(subject: Subject, action: Action, project: string | undefined, publicRead: boolean): boolean {
  if (subject.scopes) {
    const scope = SCOPE_OF[action];
    if (scope === null || !subject.scopes.includes(scope)) return false;
  }
  if (action === "read" && publicRead) return true;
  if (subject.isAdmin) return true;
  const need = RANK[NEEDED[action]];
  if (project !== undefined) {
    const role = subject.roles.get(project);
    return role !== undefined && RANK[role] >= need;
  }
  return [...subject.roles.values()].some((role) => RANK[role] >= need);
}
