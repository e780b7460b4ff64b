import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getOne } from "@/app/api/datasets/[id]/route";
import { POST as preview } from "@/app/api/datasets/preview/route";
import { POST as create } from "@/app/api/datasets/route";
import { POST as ingest } from "@/app/api/traces/route";
import { answer, authRequest, cleanAccounts, keyFor, makeUser, signIn, withoutCsrf, type Credentials } from "@/scripts/lib/test-auth";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { prisma } from "../db/client";

/**
 * `POST /api/datasets/preview` on real PostgreSQL: its counts checked by
 * hand against the traces ingested here, then against the manifests of the
 * snapshots the same requests build; its checks and access rules are the
 * snapshot's.
 */

const withCalls = JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")) as Record<string, unknown>; // 4 events, 3 model calls
const withoutCalls = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>; // 8 events, no calls
const SYSTEM = "Tau-Bench-Retail-pv";
// trace ids start with the accounts tests' prefix, so their clean-up removes them too
const id = (s: string) => `auth-test-pv-${s}`;

/**
 * The traces of SYSTEM: a, b in group g1 (with f, of another system: 3 traces), c without a group (all three with calls);
 * d without a group, e alone in g2, g in g3 (with h, of another system) (no calls).
 */
const TRACES: Record<string, unknown>[] = [
  { ...withCalls, trace_id: id("a"), system: SYSTEM, group_id: "pv-g1" },
  { ...withCalls, trace_id: id("b"), system: SYSTEM, group_id: "pv-g1" },
  // c is a fork of a (an intervention's re-run, as a replay's metadata says)
  { ...withCalls, trace_id: id("c"), system: SYSTEM, group_id: undefined, metadata: { counterfactual: { of: id("a"), call_id: "c1", edit: { reply: { content: "edited" } }, sample: 1 } } },
  { ...withoutCalls, trace_id: id("d"), system: SYSTEM, group_id: undefined },
  { ...withoutCalls, trace_id: id("e"), system: SYSTEM, group_id: "pv-g2" },
  { ...withoutCalls, trace_id: id("g"), system: SYSTEM, group_id: "pv-g3" },
  { ...withCalls, trace_id: id("f"), system: "other-pv", group_id: "pv-g1" },
  { ...withoutCalls, trace_id: id("h"), system: "other-pv", group_id: "pv-g3" },
];

const post = (body: unknown) => preview(jsonRequest("/api/datasets/preview", body), params({}));
const FILTER = { system_contains: "tau-bench-RETAIL-pv" };

beforeAll(async () => {
  await prisma().dataset.deleteMany();
  await prisma().trace.deleteMany({ where: { traceId: { startsWith: id("") } } });
  for (const t of TRACES) expect((await ingest(jsonRequest("/api/traces", t), params({}))).status).toBe(201);
  for (const [name, project] of [["p1", "pv-p"], ["q1", "pv-q"]] as const) {
    expect((await ingest(jsonRequest("/api/traces", { ...withCalls, trace_id: id(name), project, system: "tau-auth-pv", group_id: undefined }), params({}))).status).toBe(201);
  }
});

afterAll(async () => {
  await prisma().dataset.deleteMany();
  await prisma().trace.deleteMany({ where: { traceId: { startsWith: id("") } } });
  await cleanAccounts();
});

describe("POST /api/datasets/preview: counts", () => {
  it("transitions under ccp: one row per model call; the traces without calls are skipped", async () => {
    const { status, body } = await answer(await post({ filter: FILTER, form: "transitions", method: "ccp" }));
    expect(status).toBe(200);
    expect(body).toEqual({ traces: 6, traces_kept: 3, rows: 9, row_unit: "model call", skipped: { without_calls: 3, no_group: 0 }, replays: 1, form: "transitions", method: "ccp" });
    // the fork left out: one trace and its 3 calls fewer, and no replay to warn of
    expect((await answer(await post({ filter: { ...FILTER, replay: "0" }, form: "transitions" }))).body).toMatchObject({ traces: 5, traces_kept: 2, rows: 6, replays: 0 });
  });

  it("under gigpo the traces without a group of 2 (c, d, e) are skipped first; of the grouped, g has no calls", async () => {
    // a's and b's group g1 counts f of another system, g's group g3 counts h: as the build reads a group, whole
    expect((await answer(await post({ filter: FILTER, form: "transitions", method: "gigpo" }))).body).toMatchObject({ traces: 6, traces_kept: 2, rows: 6, skipped: { without_calls: 1, no_group: 3 } });
    expect((await answer(await post({ filter: FILTER, form: "rows", method: "gigpo" }))).body).toMatchObject({ traces: 6, traces_kept: 3, rows: 4 + 4 + 8, row_unit: "event", skipped: { without_calls: 0, no_group: 3 } });
    expect((await answer(await post({ filter: FILTER, form: "rows", method: "grpo" }))).body).toMatchObject({ rows: 16, skipped: { no_group: 3 } });
  });

  it("rows under ccp: every event; strict and extended: one row per trace, none skipped", async () => {
    expect((await answer(await post({ filter: FILTER, form: "rows" }))).body).toMatchObject({ traces: 6, traces_kept: 6, rows: 3 * 4 + 3 * 8, skipped: { without_calls: 0, no_group: 0 } });
    for (const form of ["strict", "extended"]) {
      expect((await answer(await post({ filter: FILTER, form, method: "gigpo" }))).body).toMatchObject({ traces: 6, traces_kept: 6, rows: 6, row_unit: "trace", skipped: { without_calls: 0, no_group: 0 } });
    }
  });

  it("selects what the trace list selects: system is the whole name, system_contains a part of it in any case; an empty value is no filter", async () => {
    const traces = async (filter: Record<string, string>) => (await answer(await post({ filter, form: "rows" }))).body.traces;
    expect(await traces({ system: "tau-bench" })).toBe(0);
    expect(await traces({ system: SYSTEM })).toBe(6);
    expect(await traces({ system_contains: "TAU-bench" })).toBe(6);
    expect(await traces({ system_contains: "tau", group_contains: "G1" })).toBe(2);
    expect(await traces({ system_contains: "-pv", system: "" })).toBe(8 + 2);
    expect(await traces({ ids: `${id("a")},${id("h")}`, task_contains: "" })).toBe(2);
  });

  it("the counts are those of the snapshot the same request builds", async () => {
    for (const request of [
      { filter: FILTER, form: "transitions", method: "gigpo" },
      { filter: FILTER, form: "transitions", method: "ccp" },
      { filter: FILTER, form: "rows", method: "gigpo" },
    ]) {
      const counted = (await answer(await post(request))).body as { traces_kept: number; rows: number; skipped: { without_calls: number; no_group: number } };
      const made = await create(jsonRequest("/api/datasets", { ...request, name: `pv ${request.form} ${request.method}`, format: "jsonl" }), params({}));
      expect(made.status).toBe(202);
      const { dataset } = (await made.json()) as { dataset: { id: number } };
      const manifest = await readyManifest(dataset.id);
      expect(manifest.counts).toEqual({ traces: counted.traces_kept, rows: counted.rows, traces_without_calls: counted.skipped.without_calls, traces_skipped_no_group: counted.skipped.no_group });
    }
  });

  it("is checked as a snapshot is: 400 naming $.filter.<key> for a key the trace list does not take, with each problem's path; nothing written", async () => {
    const before = await prisma().dataset.count();
    const bad = await answer(await post({ filter: { system_exact: "x", tokens_min: "0x10", system_contains: "tau" }, form: "pairs", method: "nope" }));
    expect(bad.status).toBe(400);
    expect(bad.body.error!.details.map((d) => d.path).sort()).toEqual(["$.form"]);
    const bad2 = await answer(await post({ filter: { system_exact: "x", tokens_min: "0x10" }, method: "nope" }));
    expect(bad2.status).toBe(400);
    expect(bad2.body.error!.details.map((d) => d.path).sort()).toEqual(["$.filter.system_exact", "$.filter.tokens_min", "$.method"]);
    expect(bad2.body.error!.details.find((d) => d.path === "$.filter.system_exact")!.message).toContain("system_contains");
    expect((await answer(await post({ name: "", filter: {} }))).status).toBe(200);
    expect((await answer(await post({ filter: {}, extra: 1 }))).status).toBe(400);
    expect(await prisma().dataset.count()).toBe(before);
  });
});

async function readyManifest(datasetId: number): Promise<{ counts: Record<string, number> }> {
  for (let i = 0; i < 300; i++) {
    const now = (await (await getOne(getRequest(`/api/datasets/${datasetId}`), params({ id: String(datasetId) }))).json()) as { state: string; manifest: { counts: Record<string, number> } };
    if (now.state === "ready") return now.manifest;
    if (now.state === "failed") throw new Error(`snapshot ${datasetId} failed`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("snapshot not ready in 30 s");
}

describe("POST /api/datasets/preview with accounts: the snapshot's access rules", () => {
  let annotator: Credentials, viewer: Credentials, siteAdmin: Credentials, ingestKey: Credentials, readIngestKey: Credentials;
  const send = (creds: Credentials, body: unknown) => preview(authRequest("POST", "/api/datasets/preview", creds, body), params({}));
  const BODY = { form: "rows", filter: { system_contains: "tau-auth-pv" } };

  beforeAll(async () => {
    siteAdmin = await signIn(await makeUser("pv-root", { isAdmin: true }));
    const user = await makeUser("pv-annotator", { roles: { "pv-p": "annotator", "pv-q": "viewer" } });
    annotator = await signIn(user);
    viewer = await signIn(await makeUser("pv-viewer", { roles: { "pv-p": "viewer" } }));
    ingestKey = { bearer: (await keyFor(user, ["ingest"])).bearer };
    readIngestKey = { bearer: (await keyFor(user, ["read", "ingest"])).bearer };
  });

  it("anonymous 401 (before the body is checked), viewers, ingest-only keys and a session without its CSRF token 403", async () => {
    expect((await answer(await send({}, BODY))).status).toBe(401);
    expect((await answer(await send({}, { filter: { bad_key: "x" } }))).status).toBe(401);
    expect((await answer(await send(viewer, BODY))).status).toBe(403);
    expect((await answer(await send(ingestKey, BODY))).status).toBe(403);
    expect((await answer(await send(withoutCsrf(annotator), BODY))).status).toBe(403);
  });

  it("an annotator of pv-p: 403 for pv-q (a viewer there); without a project, only pv-p's traces are counted; a site admin counts both", async () => {
    expect((await answer(await send(annotator, { ...BODY, filter: { ...BODY.filter, project: "pv-q" } }))).status).toBe(403);
    expect((await answer(await send(annotator, { ...BODY, filter: { ...BODY.filter, project: "pv-p" } }))).body).toMatchObject({ traces: 1, rows: 4 });
    expect((await answer(await send(annotator, BODY))).body).toMatchObject({ traces: 1, rows: 4 });
    expect((await answer(await send(readIngestKey, BODY))).body).toMatchObject({ traces: 1, rows: 4 });
    expect((await answer(await send(siteAdmin, BODY))).body).toMatchObject({ traces: 2, rows: 8 });
  });
});
