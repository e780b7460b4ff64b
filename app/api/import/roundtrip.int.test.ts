import { beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { ingestFormatted } from "@/lib/server/ingest/format-ingest";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { GET as credit } from "../traces/[id]/credit/route";
import { GET as decisive } from "../traces/[id]/decisive-error/route";
import { GET as exportTrace } from "../traces/[id]/export/route";
import { GET as metrics } from "../traces/[id]/metrics/route";
import { GET as annotations, POST as annotate } from "../traces/[id]/annotations/route";
import { POST as importFile } from "./route";

/** One real file per format of ../shared/data (read in place). */
const DATA = "../shared/data";
const SAMPLES = [
  `${DATA}/who_and_when/Algorithm-Generated/1.json`,
  `${DATA}/who_and_when/Hand-Crafted/1.json`,
  `${DATA}/multiagentbench_marble/E_COMMERCE_MISSING_INDEXES_RESULT.json`,
  `${DATA}/tau_bench/gpt-4o-airline.json`,
  `${DATA}/chatdev_warehouse/Gomoku_HumanAgentInteraction_20230920135038`,
  `${DATA}/agentops_crewai_ibm/agent_ops_traces.json`,
];

type Handler = (r: Request, c: { params: Promise<{ id: string }> }) => Promise<Response>;
const get = async (handler: Handler, url: string, id: string) => (await handler(getRequest(url), params({ id }))).text();

/** Everything a user reads of a trace: metrics, credit, labels and decisive errors (ids of the database removed). */
async function observed(id: string) {
  const e = encodeURIComponent(id);
  // the same labels by the same names; once re-imported they are an imported annotator's (never the account's), which `imported` says
  const labels = (JSON.parse(await get(annotations, `/api/traces/${e}/annotations`, id)) as { annotations: { id: number; imported: boolean }[] }).annotations.map(({ id: _id, imported: _imported, ...a }) => a);
  return {
    metrics: await get(metrics, `/api/traces/${e}/metrics`, id),
    credit: await get(credit, `/api/traces/${e}/credit`, id),
    labels,
    decisive: await get(decisive, `/api/traces/${e}/decisive-error`, id),
  };
}

async function upload(text: string, name: string) {
  const response = await importFile(new Request(`http://localhost/api/import?format=auto&name=${name}`, { method: "POST", body: text, headers: { "content-type": "application/json" } }), params({}));
  return { status: response.status, body: (await response.json()) as { format: string; traces: { trace_id: string }[] } };
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
  await prisma().annotation.deleteMany();
  await prisma().decisiveError.deleteMany();
});

describe("Baton's own exports come back in with auto-detection, for every format in ../shared/data", () => {
  it("extended: the same metrics, credit, labels and decisive errors; strict: recognised as Baton's and stored", async () => {
    const ids: string[] = [];
    for (const file of SAMPLES) {
      const outcome = await ingestFormatted(file, { format: "auto", upsert: false });
      expect(outcome.ok, file).toBe(true);
      ids.push(...(await prisma().trace.findMany({ select: { traceId: true } })).map((t) => t.traceId).filter((t) => !ids.includes(t)));
    }
    expect(ids.length).toBeGreaterThanOrEqual(SAMPLES.length);
    // a person's labels on each trace, so that labels have something to survive
    for (const id of ids) {
      const row = await prisma().trace.findUniqueOrThrow({ where: { traceId: id }, include: { events: { take: 1, orderBy: { seq: "asc" } } } });
      const url = `/api/traces/${encodeURIComponent(id)}/annotations`;
      for (const label of [{ family: "task_success", value: 0, comment: "failed" }, { event_id: row.events[0]!.eventId, family: "cost", value: -0.5 }]) {
        expect((await annotate(jsonRequest(url, label), params({ id }))).status).toBe(201);
      }
    }
    const before = new Map<string, Awaited<ReturnType<typeof observed>>>();
    const files = new Map<string, { extended: string; strict: string }>();
    for (const id of ids) {
      before.set(id, await observed(id));
      const e = encodeURIComponent(id);
      files.set(id, { extended: await get(exportTrace, `/api/traces/${e}/export?format=extended`, id), strict: await get(exportTrace, `/api/traces/${e}/export?format=strict`, id) });
    }
    await prisma().trace.deleteMany();
    await prisma().annotation.deleteMany();
    await prisma().decisiveError.deleteMany();
    for (const id of ids) {
      const extended = await upload(files.get(id)!.extended, "export.json");
      expect([extended.status, extended.body.format], id).toEqual([201, "baton"]);
      expect(await observed(id), id).toEqual(before.get(id));
    }
    await prisma().trace.deleteMany();
    for (const id of ids) {
      const strict = await upload(files.get(id)!.strict, "strict.json");
      expect([strict.status, strict.body.format, strict.body.traces.map((t) => t.trace_id)], id).toEqual([201, "baton", [id]]);
    }
  }, 240_000);
});
