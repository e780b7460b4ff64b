/**
 * The route x actor matrix of lib/server/auth/read-matrix.int.test.ts: the
 * actors, the fixtures (a trace and a queue in project "p"), and one call
 * per exported route handler. Expected answers are strings of nine tokens,
 * one per actor in ACTORS order, so that a row reads like the table in
 * docs/api.md.
 */
import { revokeApiKey } from "@/lib/server/auth/api-keys";
import { prisma } from "@/lib/server/db/client";
import { answer, authRequest, exampleTrace, keyFor, makeUser, signIn, TEST_DOMAIN, TRACE_PREFIX, type Credentials } from "./test-auth";

export const ACTORS = ["anonymous", "other", "viewer", "annotator", "padmin", "siteadmin", "keyNoRead", "revokedKey", "madeUpKey"] as const;
export type ActorName = (typeof ACTORS)[number];
export type Actors = Record<ActorName, Credentials>;

export { appFiles, routePath } from "./app-files";

export interface Fixtures {
  actors: Actors;
  traceId: string;
  queueId: number;
  itemId: number;
}

let serial = 0;
export const unique = (what: string) => `${TRACE_PREFIX}${what}-${++serial}`;

/** Users of each kind (members of "p", an admin of "q" only, a site admin), keys, a trace and a queue in "p". */
export async function makeFixtures(): Promise<Fixtures> {
  const root = await makeUser("root", { isAdmin: true });
  const viewerUser = await makeUser("viewer", { roles: { p: "viewer" } });
  const annotatorUser = await makeUser("annotator", { roles: { p: "annotator" } });
  const padminUser = await makeUser("padmin", { roles: { p: "admin" } });
  const revoked = await keyFor(root, ["read", "ingest", "annotate"]);
  await revokeApiKey(revoked.id);
  const actors: Actors = {
    anonymous: {},
    other: await signIn(await makeUser("qadmin", { roles: { q: "admin" } })),
    viewer: await signIn(viewerUser),
    annotator: await signIn(annotatorUser),
    padmin: await signIn(padminUser),
    siteadmin: await signIn(root),
    keyNoRead: { bearer: (await keyFor(root, ["ingest"])).bearer },
    revokedKey: { bearer: revoked.bearer },
    madeUpKey: { bearer: `baton_${"x".repeat(43)}` },
  };
  const traceId = await storeTrace(actors.siteadmin, "p");
  const { POST: createQueue } = await import("@/app/api/queues/route");
  const emails = (await prisma().user.findMany({ where: { id: { in: [root.id, viewerUser.id, annotatorUser.id, padminUser.id] } } })).map((u) => u.email);
  const created = await answer(await createQueue(authRequest("POST", "/api/queues", actors.siteadmin, {
    project: "p", name: unique("queue"), families: ["step_quality"], assignees: emails, annotators_per_item: 4, filter: { trace_ids: [traceId] },
  }), { params: Promise.resolve({}) }));
  if (created.status !== 201) throw new Error(`queue fixture: ${JSON.stringify(created.body)}`);
  const queueId = (created.body.queue as { id: number }).id;
  const item = await prisma().queueItem.findFirstOrThrow({ where: { queueId } });
  return { actors, traceId, queueId, itemId: item.id };
}

export async function storeTrace(creds: Credentials, project: string): Promise<string> {
  const { POST: ingest } = await import("@/app/api/traces/route");
  const trace = exampleTrace(unique("t").slice(TRACE_PREFIX.length), project);
  const response = await ingest(authRequest("POST", "/api/traces", creds, trace), { params: Promise.resolve({}) });
  if (response.status !== 201) throw new Error(`trace fixture: ${response.status} ${await response.text()}`);
  return trace.trace_id as string;
}

export const newEmail = () => `${unique("u").slice(TRACE_PREFIX.length)}@${TEST_DOMAIN}`;
