import { afterEach, describe, expect, it } from "vitest";
import { cleanAccounts, makeUser } from "@/scripts/lib/test-auth";
import { prisma } from "../db/client";
import { createSession, findSession, SESSION_TTL_MS } from "./sessions";
import { userInclude } from "./users";

afterEach(cleanAccounts);

/** The user as Prisma's `userInclude` reads it: what findSession's one statement must give. */
const viaPrisma = (id: number) => prisma().user.findUniqueOrThrow({ where: { id }, include: userInclude });
const byProject = <T extends { projectId: number }>(list: T[]) => [...list].sort((a, b) => a.projectId - b.projectId);

describe("findSession", () => {
  it("gives the session's user exactly as Prisma's include does: fields, memberships with roles and project names", async () => {
    const member = await makeUser("member", { roles: { "sessions-p": "annotator", "sessions-q": "admin", "sessions-r": "viewer" }, password: "a password 1" });
    const loner = await makeUser("loner", { isAdmin: true });
    for (const user of [member, loner]) {
      const session = await createSession(user.id);
      const found = await findSession(session.token);
      expect(found).not.toBeNull();
      expect(found!.csrfToken).toBe(session.csrfToken);
      expect(found!.expiresAt.getTime()).toBe(session.expiresAt.getTime());
      const expected = await viaPrisma(user.id);
      expect({ ...found!.user, memberships: byProject(found!.user.memberships) }).toEqual({ ...expected, memberships: byProject(expected.memberships) });
    }
    const member3 = (await findSession((await createSession(member.id)).token))!.user.memberships;
    expect(member3.map((m) => [m.project.name, m.role]).sort()).toEqual([["sessions-p", "annotator"], ["sessions-q", "admin"], ["sessions-r", "viewer"]]);
    expect((await findSession((await createSession(loner.id)).token))!.user).toMatchObject({ isAdmin: true, memberships: [] });
  });

  it("an unknown token is no session; an expired one is none either, and is deleted", async () => {
    const user = await makeUser("expiring");
    expect(await findSession("not-a-token")).toBeNull();
    const session = await createSession(user.id, new Date(Date.now() - SESSION_TTL_MS - 1000));
    expect(await prisma().session.count({ where: { userId: user.id } })).toBe(1);
    expect(await findSession(session.token)).toBeNull();
    expect(await prisma().session.count({ where: { userId: user.id } })).toBe(0);
  });
});
