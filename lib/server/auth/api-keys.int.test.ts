import { afterEach, describe, expect, it } from "vitest";
import { cleanAccounts, keyFor, makeUser } from "@/scripts/lib/test-auth";
import { prisma } from "../db/client";
import { findApiKey, revokeApiKey } from "./api-keys";
import { userInclude } from "./users";

afterEach(cleanAccounts);

const byProject = <T extends { projectId: number }>(list: T[]) => [...list].sort((a, b) => a.projectId - b.projectId);

describe("findApiKey", () => {
  it("gives the key's scopes and its user exactly as Prisma's include does, and notes its use at most once a minute", async () => {
    const user = await makeUser("keyed", { roles: { "keys-p": "annotator", "keys-q": "viewer" } });
    const { bearer, id } = await keyFor(user, ["read", "annotate"]);
    const t0 = new Date(Date.now() + 1000);
    const found = await findApiKey(bearer, t0);
    expect(found).not.toBeNull();
    expect([found!.id, found!.scopes]).toEqual([id, ["read", "annotate"]]);
    const expected = await prisma().user.findUniqueOrThrow({ where: { id: user.id }, include: userInclude });
    expect({ ...found!.user, memberships: byProject(found!.user.memberships) }).toEqual({ ...expected, memberships: byProject(expected.memberships) });
    expect(found!.user.memberships.map((m) => [m.project.name, m.role]).sort()).toEqual([["keys-p", "annotator"], ["keys-q", "viewer"]]);

    const lastUsed = async () => (await prisma().apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt?.getTime();
    expect(await lastUsed()).toBe(t0.getTime());
    await findApiKey(bearer, new Date(t0.getTime() + 30_000)); // within the minute: not written again
    expect(await lastUsed()).toBe(t0.getTime());
    await findApiKey(bearer, new Date(t0.getTime() + 61_000));
    expect(await lastUsed()).toBe(t0.getTime() + 61_000);
  });

  it("an unknown key, a revoked key and a key whose user is gone are no key", async () => {
    const user = await makeUser("revoked");
    const revoked = await keyFor(user, ["read"]);
    await revokeApiKey(revoked.id);
    expect(await findApiKey(revoked.bearer)).toBeNull();
    expect(await findApiKey("baton_not-a-key")).toBeNull();
    const orphan = await makeUser("orphan");
    const key = await keyFor(orphan, ["read"]);
    expect(await findApiKey(key.bearer)).not.toBeNull();
    await prisma().user.delete({ where: { id: orphan.id } }); // api_keys.user_id is no foreign key: the key row stays
    expect(await prisma().apiKey.count({ where: { id: key.id } })).toBe(1);
    expect(await findApiKey(key.bearer)).toBeNull();
    await prisma().apiKey.delete({ where: { id: key.id } }); // cleanAccounts finds keys through their users
  });
});
