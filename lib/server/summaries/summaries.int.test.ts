import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as dashboard } from "@/app/api/dashboard/route";
import { GET as metrics } from "@/app/api/metrics/route";
import { POST as ingest } from "@/app/api/traces/route";
import { POST as annotate } from "@/app/api/traces/[id]/annotations/route";
import { prisma } from "@/lib/server/db/client";
import { deleteTrace } from "@/lib/server/queries/delete-trace";
import { exampleTrace } from "@/scripts/lib/test-auth";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";

/*
 * The summaries on a small hand-computed case: three traces of one project,
 * makespan 1, 2 and 4 and terminal_tainted true, false, null (set by SQL),
 * two on 2026-02-01 and one on 2026-02-03; one labelled a success.
 */
const PROJECT = "summ-hand";
const [A, B, C] = ["sh-a", "sh-b", "sh-c"].map((id) => `auth-test-${id}`) as [string, string, string];

type Metrics = { traces: number; e1: { n: number; rate: number | null }; e2: Record<string, { mean: number | null; median: number | null }>; e4: Record<string, { mean: number | null; median: number | null }> };
type Dashboard = {
  traces: number;
  histograms: { metric: string; values: number; nulls: number; edges: number[]; bars: { count: number }[] }[];
  trends: { day: { points: { label: string; traces: number; means: Record<string, number | null> }[] } };
};

beforeAll(async () => {
  const traces = ["sh-a", "sh-b", "sh-c"].map((id) => exampleTrace(id, PROJECT));
  expect((await ingest(jsonRequest("/api/traces", traces), params({}))).status).toBe(201);
  // the label first: a label write recomputes the trace's stored metrics
  expect((await annotate(jsonRequest(`/api/traces/${A}/annotations`, { family: "task_success", value: 1 }), params({ id: A }))).status).toBe(201);
  for (const [id, makespan, tainted, day] of [[A, 1, true, "2026-02-01"], [B, 2, false, "2026-02-01"], [C, 4, null, "2026-02-03"]] as const) {
    await prisma().$executeRaw`UPDATE traces SET makespan = ${makespan}::float8, terminal_tainted = ${tainted}::boolean, created_at = ${`${day}T10:00:00Z`}::timestamptz WHERE trace_id = ${id}`;
  }
});
afterAll(async () => {
  await prisma().trace.deleteMany({ where: { project: { name: PROJECT } } });
});

const read = async <T>(route: typeof metrics, url: string) => (await (await route(getRequest(url), params({}))).json()) as T;

describe("summaries, by hand", () => {
  it("answer counts, means, medians and day trends from the summary rows, and stay right after a delete", async () => {
    const cells = await prisma().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM summary_cells c JOIN projects p ON p.id = c.project_id WHERE p.name = ${PROJECT}`;
    expect(cells[0]!.n).toBe(2); // one cell per day
    const m = await read<Metrics>(metrics, `/api/metrics?project=${PROJECT}`);
    expect(m.traces).toBe(3);
    expect(m.e2.makespan).toEqual({ mean: 7 / 3, median: 2 }); // (1 + 2 + 4) / 3; whole numbers are their own bins
    expect(m.e4.terminal_tainted).toEqual({ mean: 0.5, median: 0.5 }); // 1 and 0
    // E1: the label makes A a success; B and C keep what the example reports
    expect(m.e1.n).toBeGreaterThanOrEqual(1);

    const d = await read<Dashboard>(dashboard, `/api/dashboard?project=${PROJECT}`);
    const makespan = d.histograms.find((h) => h.metric === "makespan")!;
    expect([makespan.values, makespan.nulls, makespan.edges[0], makespan.edges.at(-1)]).toEqual([3, 0, 1, 4]);
    expect(d.trends.day.points.map((p) => [p.label, p.traces, p.means.makespan])).toEqual([
      ["2026-02-01", 2, 1.5],
      ["2026-02-02", 0, null],
      ["2026-02-03", 1, 4],
    ]);
    // a filter on whole days is answered from the summaries too
    const day = await read<Dashboard>(dashboard, `/api/dashboard?project=${PROJECT}&from=2026-02-02&to=2026-02-03`);
    expect([day.traces, day.histograms.find((x) => x.metric === "makespan")!.values]).toEqual([1, 1]);

    // deleting the trace that held the maximum: the max, the mean and the day are recomputed
    await deleteTrace(C);
    const after = await read<Dashboard>(dashboard, `/api/dashboard?project=${PROJECT}`);
    const h = after.histograms.find((x) => x.metric === "makespan")!;
    expect([after.traces, h.values, h.edges[0], h.edges.at(-1)]).toEqual([2, 2, 1, 2]);
    expect(after.trends.day.points.map((p) => [p.label, p.traces])).toEqual([["2026-02-01", 2]]);
    expect((await read<Metrics>(metrics, `/api/metrics?project=${PROJECT}`)).e2.makespan).toEqual({ mean: 1.5, median: 1.5 });
  });
});
