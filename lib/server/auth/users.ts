import "server-only";
import type { ApiUser, CreateUserInput, MembershipInput, UpdateUserInput } from "@/lib/api/auth";
import { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "../db/client";
import { ApiError, notFound } from "../errors";
import { hashPassword } from "./password";
import type { Subject } from "./policy";

/** Accounts: the people who sign in, their site-admin flag and their role per project. */
export const userInclude = { memberships: { include: { project: { select: { name: true } } } } } satisfies Prisma.UserInclude;
export type UserRow = Prisma.UserGetPayload<{ include: typeof userInclude }>;

/**
 * What `userInclude` reads, as raw SQL select columns of the user aliased `u`,
 * for statements that every request runs (the session lookup) and so skip
 * Prisma's nested include; `userRowOf` turns such a row into the same UserRow.
 */
export const USER_COLUMNS_SQL = `u.id, u.email, u.name, u.password_hash, u.is_admin, u.local, u.imported, u.created_at,
  COALESCE((SELECT json_agg(json_build_object('userId', m.user_id, 'projectId', m.project_id, 'role', m.role, 'project', json_build_object('name', p.name)) ORDER BY m.project_id)
            FROM memberships m JOIN projects p ON p.id = m.project_id WHERE m.user_id = u.id), '[]') AS memberships`;

export interface UserColumns {
  id: number;
  email: string;
  name: string;
  password_hash: string | null;
  is_admin: boolean;
  local: boolean;
  imported: boolean;
  created_at: Date;
  memberships: UserRow["memberships"];
}

export function userRowOf(row: UserColumns): UserRow {
  return { id: row.id, email: row.email, name: row.name, passwordHash: row.password_hash, isAdmin: row.is_admin, local: row.local, imported: row.imported, createdAt: row.created_at, memberships: row.memberships };
}

type Tx = Prisma.TransactionClient;

export function toApiUser(row: UserRow): ApiUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    is_admin: row.isAdmin,
    memberships: row.memberships.map((m) => ({ project: m.project.name, role: m.role })).sort((a, b) => a.project.localeCompare(b.project)),
    created_at: row.createdAt.toISOString(),
  };
}

export function subjectOf(row: UserRow): Subject {
  return { isAdmin: row.isAdmin, roles: new Map(row.memberships.map((m) => [m.project.name, m.role])) };
}

/** Every account that can sign in (the open-mode local user is not one), by email. */
export async function listUsers(): Promise<ApiUser[]> {
  const rows = await prisma().user.findMany({ where: { local: false, imported: false }, include: userInclude, orderBy: { email: "asc" } });
  return rows.map(toApiUser);
}

export async function createUser(input: CreateUserInput): Promise<ApiUser> {
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await prisma().$transaction(async (tx) => {
      const user = await tx.user.create({ data: { email: input.email, name: input.name, passwordHash, isAdmin: input.is_admin } });
      await setMemberships(tx, user.id, input.memberships);
      return tx.user.findUniqueOrThrow({ where: { id: user.id }, include: userInclude });
    });
    return toApiUser(row);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new ApiError(409, "conflict", `an account with email "${input.email}" exists`, [{ path: "$.email", message: "taken" }]);
    }
    throw error;
  }
}

/**
 * Changes a user's name, password, site-admin flag or memberships (the list
 * replaces the old one). A new password ends the user's sessions. Taking
 * away the last site admin's flag is refused: it would silently reopen
 * Baton to everyone (deleting that user is the explicit way).
 */
export async function updateUser(id: number, input: UpdateUserInput): Promise<ApiUser> {
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  const row = await prisma().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id } });
    if (!user || user.local) throw notFound(`user ${id}`);
    if (input.is_admin === false && user.isAdmin && (await lockedAdminCount(tx)) <= 1) {
      throw new ApiError(409, "conflict", "this is the last site admin: removing the flag would put Baton back in open local mode (delete the user to do that on purpose)", [
        { path: "$.is_admin", message: "last site admin" },
      ]);
    }
    await tx.user.update({ where: { id }, data: { name: input.name, isAdmin: input.is_admin, passwordHash } });
    if (passwordHash !== undefined) await tx.session.deleteMany({ where: { userId: id } });
    if (input.memberships) await setMemberships(tx, id, input.memberships);
    return tx.user.findUniqueOrThrow({ where: { id }, include: userInclude });
  });
  return toApiUser(row);
}

/**
 * Deletes an account, its sessions, and revokes its API keys. Deleting the
 * last site admin puts Baton back in open local mode. Someone who has
 * annotated is kept (their labels name them): 409.
 */
export async function deleteUser(id: number): Promise<{ open_mode: boolean }> {
  return prisma().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id } });
    if (!user || user.local) throw notFound(`user ${id}`);
    const labels = await tx.annotation.count({ where: { annotatorId: id } });
    if (labels > 0) throw new ApiError(409, "conflict", `user ${id} has ${labels} annotation(s); take their roles away instead`);
    await tx.apiKey.updateMany({ where: { userId: id, revokedAt: null }, data: { revokedAt: new Date() } });
    await tx.user.delete({ where: { id } });
    return { open_mode: (await tx.user.count({ where: { isAdmin: true } })) === 0 };
  });
}

/** Site admins, with their rows locked until the transaction ends (two demotions cannot both pass). */
async function lockedAdminCount(tx: Tx): Promise<number> {
  const rows = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM users WHERE is_admin FOR UPDATE`;
  return rows.length;
}

async function setMemberships(tx: Tx, userId: number, memberships: readonly MembershipInput[]): Promise<void> {
  await tx.membership.deleteMany({ where: { userId } });
  if (memberships.length === 0) return;
  const names = memberships.map((m) => m.project);
  // a role may be given before the project has traces: the project is created empty
  await tx.project.createMany({ data: names.map((name) => ({ name })), skipDuplicates: true });
  const projects = await tx.project.findMany({ where: { name: { in: names } }, select: { id: true, name: true } });
  const idOf = new Map(projects.map((p) => [p.name, p.id]));
  await tx.membership.createMany({ data: memberships.map((m) => ({ userId, projectId: idOf.get(m.project)!, role: m.role })) });
}

export async function findUserByEmail(email: string): Promise<UserRow | null> {
  return prisma().user.findUnique({ where: { email }, include: userInclude });
}

