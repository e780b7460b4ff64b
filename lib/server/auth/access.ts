import "server-only";
import { CSRF_HEADER } from "@/lib/api/auth";
import { readCookie } from "@/lib/api/csrf";
import { publicReadEnabled } from "../config";
import { pool } from "../db/client";
import { ApiError } from "../errors";
import { findApiKey, type LiveKey } from "./api-keys";
import { SESSION_COOKIE } from "./cookies";
import { permits, type Action, type Subject } from "./policy";
import { findSession } from "./sessions";
import { looksLikeApiKey, safeEqual } from "./tokens";
import { subjectOf, type UserRow } from "./users";

/**
 * Who may do what (docs/api.md "Accounts and access"). Until a site admin
 * exists Baton runs in open local mode: one local user, everything allowed.
 * After that a request is a session (cookie), an API key (Bearer) or
 * anonymous; `policy.ts` decides, and cookie-authenticated writes must carry
 * the session's CSRF token.
 */
export type { Action };

export interface Actor {
  /** 0 for an anonymous reader (no user) */
  userId: number;
  email: string;
  name: string;
  /** how the request was authenticated */
  via: "open" | "session" | "api_key" | "anonymous";
}

const LOCAL_EMAIL = "local@baton.localhost";
const ANONYMOUS: Actor = { userId: 0, email: "", name: "anonymous", via: "anonymous" };
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The single local user of open local mode, created on first use. */
export async function localUser(): Promise<Actor> {
  // one indexed read on the hot path (every write in open mode); the INSERT ... ON CONFLICT only once,
  // not Prisma's upsert: concurrent first requests must not race on the unique e-mail
  const select = () => pool().query<LocalRow>("SELECT id, email, name FROM users WHERE email = $1", [LOCAL_EMAIL]);
  let user = (await select()).rows[0];
  if (!user) {
    // a separate SELECT afterwards: the INSERT's own snapshot cannot see the row a concurrent first request committed
    await pool().query("INSERT INTO users (email, name, local) VALUES ($1, 'local', true) ON CONFLICT (email) DO NOTHING", [LOCAL_EMAIL]);
    user = (await select()).rows[0]!;
  }
  return { userId: user.id, email: user.email, name: user.name, via: "open" };
}

interface LocalRow {
  id: number;
  email: string;
  name: string;
}

/** True while no site admin exists: everything is allowed and the banner says so. */
export async function isOpenMode(): Promise<boolean> {
  // raw SQL: asked on every request, and Prisma's query engine costs more CPU than the index probe
  const { rows } = await pool().query<{ admin: boolean }>("SELECT EXISTS (SELECT 1 FROM users WHERE is_admin) AS admin");
  return !rows[0]!.admin;
}

export type Principal =
  | { kind: "open"; local: Actor | null }
  | { kind: "anonymous" }
  | { kind: "session"; user: UserRow; csrfToken: string }
  | { kind: "api_key"; user: UserRow; key: LiveKey };

/**
 * The request's credentials. A Bearer header that is not a live key is a
 * 401 (a script should hear that its key is wrong); a stale session cookie
 * only makes the request anonymous.
 */
export function identify(request: Request): Promise<Principal> {
  // once per request: authorizeInProject asks for the read scope and then authorizes the action
  let principal = identified.get(request);
  if (!principal) {
    principal = identifyUncached(request);
    identified.set(request, principal);
  }
  return principal;
}

const identified = new WeakMap<Request, Promise<Principal>>();

async function identifyUncached(request: Request): Promise<Principal> {
  // one round trip for the mode and, in open mode, the local user (every request asks)
  // a named statement: each pooled connection parses and plans it once (lib/server/db/client.ts)
  const { rows } = await pool().query<ModeRow>({ name: "auth.mode", text: MODE_SQL, values: [LOCAL_EMAIL] });
  return principalOf(request, rows[0]!);
}

/** The mode (is there a site admin?) and the local user, as every request reads them; `$1` is the local user's email. */
const MODE_SQL = "SELECT EXISTS (SELECT 1 FROM users WHERE is_admin) AS admin, l.id, l.email, l.name FROM (SELECT 1) one LEFT JOIN users l ON l.email = $1";

interface ModeRow {
  admin: boolean;
  id: number | null;
  email: string;
  name: string;
}

/**
 * identify() for a route that reads one more row in the same round trip as
 * the mode (the label write path: the trace's key and project). `sql` gets
 * the mode query as a FROM item named `mode`, `$1` is the local user's
 * email and its own parameters (`values`) start at `$2`. The request's
 * identity is then settled as identify() would have settled it.
 */
export async function identifyAlong<T extends object>(request: Request, name: string, sql: (mode: string) => string, values: unknown[]): Promise<T & ModeRow> {
  const { rows } = await pool().query<T & ModeRow>({ name, text: sql(`(${MODE_SQL}) mode`), values: [LOCAL_EMAIL, ...values] });
  const row = rows[0]!;
  if (!identified.has(request)) identified.set(request, principalOf(request, row));
  return row;
}

async function principalOf(request: Request, mode: ModeRow): Promise<Principal> {
  if (!mode.admin) return { kind: "open", local: mode.id === null ? null : { userId: mode.id, email: mode.email, name: mode.name, via: "open" } };
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const key = match && looksLikeApiKey(match[1]!) ? await findApiKey(match[1]!) : null;
    if (!key) throw new ApiError(401, "unauthenticated", "invalid or revoked API key (send Authorization: Bearer baton_…)");
    return { kind: "api_key", user: key.user, key };
  }
  const token = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  const session = token ? await findSession(token) : null;
  return session ? { kind: "session", user: session.user, csrfToken: session.csrfToken } : { kind: "anonymous" };
}

/**
 * Resolves the actor of a request allowed to do `action` (in `project`, when
 * given); throws ApiError 401 (no credentials) or 403 (not allowed, or a
 * cookie-authenticated write without the CSRF token) otherwise.
 */
export async function authorize(request: Request, action: Action, project?: string): Promise<Actor> {
  const principal = await identify(request);
  if (principal.kind === "open") return principal.local ?? localUser();
  checkCsrf(request, principal);
  const publicRead = publicReadEnabled();
  if (principal.kind === "anonymous") {
    if (action === "read" && publicRead) return ANONYMOUS;
    throw unauthenticated();
  }
  const subject: Subject = principal.kind === "api_key" ? { ...subjectOf(principal.user), scopes: principal.key.scopes } : subjectOf(principal.user);
  if (!permits(subject, action, project, publicRead)) throw forbidden(principal, action, project);
  return actorOf(principal);
}

/**
 * Where the request may do `action`, as a predicate that never throws: for
 * an ingest that may replace stored traces (upsert) or restore adjudications,
 * decided per stored trace or per record. Open mode: everywhere.
 */
export async function permittedProjects(request: Request, action: Action): Promise<(project: string) => boolean> {
  const principal = await identify(request);
  if (principal.kind === "open") return () => true;
  if (principal.kind === "anonymous") return () => false;
  const subject: Subject = principal.kind === "api_key" ? { ...subjectOf(principal.user), scopes: principal.key.scopes } : subjectOf(principal.user);
  const publicRead = publicReadEnabled();
  return (project) => permits(subject, action, project, publicRead);
}

/**
 * For managing users and keys: a signed-in site admin (a session, never a
 * key). In open local mode there is nobody to manage yet: 403 `open_mode`
 * (creating the first admin goes through the setup link, so that reaching
 * an open instance is not enough to take it over).
 */
export async function authorizeSiteAdmin(request: Request): Promise<{ actor: Actor; user: UserRow }> {
  const principal = await identify(request);
  if (principal.kind === "open") {
    throw new ApiError(403, "open_mode", "Baton is in open local mode: create the first admin (setup link printed at start, or BATON_ADMIN_EMAIL/BATON_ADMIN_PASSWORD) to manage users and keys");
  }
  if (principal.kind === "anonymous") throw unauthenticated();
  checkCsrf(request, principal);
  if (principal.kind === "api_key") throw new ApiError(403, "forbidden", "API keys cannot manage users or keys; sign in as a site admin");
  if (!principal.user.isAdmin) throw new ApiError(403, "forbidden", "only site admins manage users and keys");
  return { actor: actorOf(principal), user: principal.user };
}

/** Cookie-authenticated writes need the session's CSRF token in the x-csrf-token header. */
export function checkCsrf(request: Request, principal: Principal): void {
  if (principal.kind !== "session" || !UNSAFE_METHODS.has(request.method.toUpperCase())) return;
  const sent = request.headers.get(CSRF_HEADER);
  if (!sent || !safeEqual(sent, principal.csrfToken)) {
    throw new ApiError(403, "csrf", `missing or wrong ${CSRF_HEADER} header (GET /api/auth/session returns the token)`);
  }
}

function actorOf(principal: Extract<Principal, { user: UserRow }>): Actor {
  const { id, email, name } = principal.user;
  return { userId: id, email, name, via: principal.kind };
}

function unauthenticated(): ApiError {
  return new ApiError(401, "unauthenticated", "sign in, or send an API key as Authorization: Bearer");
}

function forbidden(principal: Principal, action: Action, project: string | undefined): ApiError {
  const where = project === undefined ? "" : ` in project "${project}"`;
  const who = principal.kind === "api_key" ? "this API key (or its user)" : "your role";
  return new ApiError(403, "forbidden", `${who} does not allow "${action}"${where}`);
}

/** What a caller may read: every project, or only these (possibly none). */
export type ReadScope = { all: true } | { all: false; projects: ReadonlySet<string> };
const READ_NOTHING: ReadScope = { all: false, projects: new Set() };

/**
 * The one read policy (docs/api.md "Accounts and access"), as a scope:
 * open mode and public read see all (a key only with its `read` scope);
 * site admins all; members their projects; anyone else nothing.
 */
export function readScopeOf(principal: Principal, ignoreKeyScopes = false): ReadScope {
  if (principal.kind === "open") return { all: true };
  if (principal.kind === "api_key" && !ignoreKeyScopes && !principal.key.scopes.includes("read")) return READ_NOTHING;
  if (publicReadEnabled()) return { all: true };
  if (principal.kind === "anonymous") return READ_NOTHING;
  const subject = subjectOf(principal.user);
  return subject.isAdmin ? { all: true } : { all: false, projects: new Set(subject.roles.keys()) };
}

export const mayRead = (scope: ReadScope, project: string): boolean => scope.all || scope.projects.has(project);

/**
 * For a thing of one project named in the path (a trace, a queue): the
 * actor allowed `action` on it. A caller who may not read its project gets
 * the same 404 as for an unknown thing (`missing`), so that answers never
 * reveal which ids exist; a reader without the role for `action` gets 403.
 * A key acts for its user: for a write it finds what its user may read,
 * and its scopes decide the action (an `annotate` key needs no `read`).
 */
export async function authorizeInProject(request: Request, project: string | null, action: Action, missing: () => ApiError): Promise<Actor> {
  const scope = readScopeOf(await identify(request), action !== "read");
  if (project === null || !mayRead(scope, project)) throw missing();
  return authorize(request, action, project);
}

/**
 * The projects a request may read, for list and aggregate routes: null for
 * all, else the projects where the caller has a role. Anonymous requests
 * without public read get 401; a key without the `read` scope 403.
 */
export async function readableProjects(request: Request): Promise<string[] | null> {
  const principal = await identify(request);
  if (principal.kind === "api_key" && !principal.key.scopes.includes("read")) throw forbidden(principal, "read", undefined);
  if (principal.kind === "anonymous" && !publicReadEnabled()) throw unauthenticated();
  const scope = readScopeOf(principal);
  return scope.all ? null : [...scope.projects];
}

/**
 * For work a caller starts on the traces of many projects (a dataset
 * snapshot): the actor allowed `action` (in `project` when given, else in
 * at least one project; 401/403 otherwise) and every project where it may
 * do it (null: all, for open mode and site admins).
 */
export async function projectsPermitting(request: Request, action: Action, project?: string): Promise<{ actor: Actor; projects: string[] | null }> {
  const actor = await authorize(request, action, project);
  const principal = await identify(request);
  if (principal.kind === "open" || principal.kind === "anonymous") return { actor, projects: null };
  const subject: Subject = principal.kind === "api_key" ? { ...subjectOf(principal.user), scopes: principal.key.scopes } : subjectOf(principal.user);
  if (subject.isAdmin) return { actor, projects: null };
  const publicRead = publicReadEnabled();
  return { actor, projects: [...subject.roles.keys()].filter((p) => permits(subject, action, p, publicRead)) };
}
