import { z } from "zod";
import { MAX_ID_LENGTH } from "@/lib/trace/limits";

/**
 * Bodies and answers of the accounts API (`/api/auth/*`, `/api/admin/*`,
 * docs/api.md "Accounts and access"). Shared by the route handlers and the
 * sign-in, setup and admin forms.
 */
export const ROLES = ["admin", "annotator", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const SCOPES = ["ingest", "read", "annotate"] as const;
export type Scope = (typeof SCOPES)[number];

/** Header that carries the session's CSRF token on cookie-authenticated writes. */
export const CSRF_HEADER = "x-csrf-token";
/** Cookie that hands the CSRF token to the page's scripts (not httpOnly; not a credential). */
export const CSRF_COOKIE = "baton_csrf";

export const PASSWORD_MIN = 8;
// scrypt's cost grows with the input; a cap keeps one request from being an expensive one
export const PASSWORD_MAX = 256;

const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email("must be an email address").max(254));
const password = z.string().min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);
const name = z.string().trim().min(1, "must not be empty").max(200);
// a project name is an identifier like a trace's `project` (SPEC.md section 1: at most 512 characters)
const projectName = z.string().trim().min(1, "must not be empty").max(MAX_ID_LENGTH, `at most ${MAX_ID_LENGTH} characters`);

export const membershipInput = z.strictObject({ project: projectName, role: z.enum(ROLES) });
export type MembershipInput = z.infer<typeof membershipInput>;

const memberships = z
  .array(membershipInput)
  .max(1000)
  .refine((list) => new Set(list.map((m) => m.project)).size === list.length, "one role per project");

export const signInInput = z.strictObject({ email, password: z.string().min(1, "must not be empty").max(PASSWORD_MAX) });
export const setupInput = z.strictObject({ token: z.string().min(1).max(200), email, name, password });

export const createUserInput = z.strictObject({
  email,
  name,
  password,
  is_admin: z.boolean().default(false),
  memberships: memberships.default([]),
});
export type CreateUserInput = z.infer<typeof createUserInput>;

/** PATCH /api/admin/users/{id}: `memberships` replaces the user's whole set; a new `password` ends their sessions. */
export const updateUserInput = z
  .strictObject({ name: name.optional(), password: password.optional(), is_admin: z.boolean().optional(), memberships: memberships.optional() })
  .refine((u) => Object.keys(u).length > 0, "nothing to change");
export type UpdateUserInput = z.infer<typeof updateUserInput>;

export const createKeyInput = z.strictObject({
  name,
  scopes: z
    .array(z.enum(SCOPES))
    .min(1, "at least one scope")
    .refine((s) => new Set(s).size === s.length, "each scope once"),
  /** the user the key acts as (default: the admin creating it) */
  user_id: z.number().int().positive().optional(),
});
export type CreateKeyInput = z.infer<typeof createKeyInput>;

export const apiUser = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string(),
  is_admin: z.boolean(),
  memberships: z.array(z.object({ project: z.string(), role: z.enum(ROLES) })),
  created_at: z.string(),
});
export type ApiUser = z.infer<typeof apiUser>;

export const apiKeyInfo = z.object({
  id: z.number(),
  name: z.string(),
  /** the first characters of the key, to recognise it */
  prefix: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  user_id: z.number(),
  user_email: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKeyInfo = z.infer<typeof apiKeyInfo>;

export interface ApiSession {
  user: ApiUser | null;
  open_mode: boolean;
  csrf_token: string | null;
}

/** Where to go after signing in: a path on this site only (never `//host` or a full URL). */
export function safeNextPath(raw: string | string[] | undefined | null, fallback = "/"): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || [...value].some((c) => c.charCodeAt(0) < 32)) return fallback;
  return value;
}
