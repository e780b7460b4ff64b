/**
 * Helpers for the accounts integration tests: users, sessions and keys made
 * straight in the database, Requests that carry them, and a clean-up that
 * puts Baton back in open local mode for the other test files.
 */
import { readFileSync } from "node:fs";
import type { Role, Scope } from "@/lib/api/auth";
import { createApiKey } from "@/lib/server/auth/api-keys";
import { hashPassword } from "@/lib/server/auth/password";
import { createSession } from "@/lib/server/auth/sessions";
import { prisma } from "@/lib/server/db/client";

/** Every account these tests make has an email at this domain (so clean-up removes only theirs). */
export const TEST_DOMAIN = "auth-test.baton";
export const TRACE_PREFIX = "auth-test-";

export interface TestUser {
  id: number;
  email: string;
  password: string;
}

let counter = 0;

/** A user with roles per project; a password hash only when `password` is given (scrypt is slow on purpose). */
export async function makeUser(name: string, opts: { isAdmin?: boolean; roles?: Record<string, Role>; password?: string } = {}): Promise<TestUser> {
  const email = `${name}-${++counter}@${TEST_DOMAIN}`;
  const passwordHash = opts.password ? await hashPassword(opts.password) : null;
  const user = await prisma().user.create({ data: { email, name, passwordHash, isAdmin: opts.isAdmin ?? false } });
  for (const [project, role] of Object.entries(opts.roles ?? {})) {
    const { id: projectId } = await prisma().project.upsert({ where: { name: project }, create: { name: project }, update: {} });
    await prisma().membership.create({ data: { userId: user.id, projectId, role } });
  }
  return { id: user.id, email, password: opts.password ?? "" };
}

export interface Credentials {
  cookie?: string;
  csrf?: string;
  bearer?: string;
}

/** A signed-in browser: the session cookies and the CSRF token. */
export async function signIn(user: { id: number }): Promise<Required<Pick<Credentials, "cookie" | "csrf">>> {
  const session = await createSession(user.id);
  return { cookie: `baton_session=${session.token}; baton_csrf=${session.csrfToken}`, csrf: session.csrfToken };
}

export async function keyFor(user: { id: number }, scopes: Scope[]): Promise<{ bearer: string; id: number }> {
  const { key, api_key } = await createApiKey({ name: "test key", scopes }, user.id);
  return { bearer: key, id: api_key.id };
}

/** A Request with JSON body (when given) and the credentials: cookie, x-csrf-token, Authorization: Bearer. */
export function authRequest(method: string, url: string, creds: Credentials = {}, body?: unknown, headers: Record<string, string> = {}): Request {
  const h = new Headers(headers);
  if (body !== undefined) h.set("content-type", "application/json");
  if (creds.cookie) h.set("cookie", creds.cookie);
  if (creds.csrf) h.set("x-csrf-token", creds.csrf);
  if (creds.bearer) h.set("authorization", `Bearer ${creds.bearer}`);
  return new Request(`http://localhost${url}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** Without the CSRF token: what a cross-site form or a forgetful script would send. */
export const withoutCsrf = (creds: Credentials): Credentials => ({ ...creds, csrf: undefined });

/** Removes what these tests made: accounts (with sessions, memberships), keys, setup tokens, traces, presets. */
export async function cleanAccounts(): Promise<void> {
  const users = await prisma().user.findMany({ where: { email: { endsWith: `@${TEST_DOMAIN}` } }, select: { id: true } });
  const ids = users.map((u) => u.id);
  await prisma().annotation.deleteMany({ where: { OR: [{ annotatorId: { in: ids } }, { traceKey: { startsWith: TRACE_PREFIX } }] } });
  await prisma().apiKey.deleteMany({ where: { userId: { in: ids } } });
  await prisma().user.deleteMany({ where: { id: { in: ids } } });
  await prisma().setupToken.deleteMany();
  await prisma().trace.deleteMany({ where: { traceId: { startsWith: TRACE_PREFIX } } });
  await prisma().adjudication.deleteMany({ where: { traceKey: { startsWith: TRACE_PREFIX } } });
  await prisma().preset.deleteMany({ where: { name: { startsWith: TRACE_PREFIX } } });
  await prisma().signInFailure.deleteMany();
}

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;

/** The paper's example trace under another id, in `project`. */
export function exampleTrace(id: string, project = "default"): Record<string, unknown> {
  return { ...structuredClone(example), trace_id: `${TRACE_PREFIX}${id}`, project };
}

export interface ErrorBody {
  error: { code: string; message: string; details: { path: string; message: string }[] };
}

/** Status, error code (when an error) and body of a route handler's answer. */
export async function answer(response: Response): Promise<{ status: number; code: string | null; body: Record<string, unknown> & Partial<ErrorBody> }> {
  const body = (await response.json()) as Record<string, unknown> & Partial<ErrorBody>;
  return { status: response.status, code: body.error?.code ?? null, body };
}
