import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { traceListQuery } from "@/lib/api/filters";
import { prisma } from "@/lib/server/db/client";
import { ingestFormatted } from "@/lib/server/ingest/format-ingest";
import { ingestRecords } from "@/lib/server/ingest/ingest";
import { searchSnippets } from "./search-snippets";
import { countTraces, listTotal, listTraces, MAX_RANKED, scanSearch } from "./trace-list";
import { traceFacets } from "./traces";

/*
 * The 200 real tau-bench airline runs (shared/data, read in place) and five
 * variants of the paper's example whose list columns are set by hand:
 * tokens 100, 300, 300, none, 50 on ex-0..ex-4 (every event carries tokens/8).
 */
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as { events: Record<string, unknown>[] } & Record<string, unknown>;
const TOKENS = [100, 300, 300, 0, 50];

function variant(i: number) {
  const events = example.events.map((e, k) => ({ ...e, ...(TOKENS[i]! > 0 && { tokens: TOKENS[i]! / 8 }), ...(i === 2 && k === 5 && { status: "error" }) }));
  // ex-3 is an unchanged replay of ex-0 (as the gateway's replays say so: metadata.counterfactual)
  const replay = i === 3 && { metadata: { ...(example.metadata as object), counterfactual: { of: "ex-0", call_id: null, edit: null, sample: 1 } } };
  return { ...example, trace_id: `ex-${i}`, system: "paper", costs: { tokens: 0, wall_clock_s: 7, ...(i === 1 && { cost_usd: 0.25 }) }, events, ...replay };
}

const ids = async (params: Record<string, string>) => (await listTraces(traceListQuery.parse(params))).traces.map((t) => t.trace_id);

beforeAll(async () => {
  await prisma().trace.deleteMany();
  const tau = await ingestFormatted("../shared/data/tau_bench/gpt-4o-airline.json", { format: "taubench", upsert: false });
  expect(tau.traces).toHaveLength(200);
  await ingestRecords([0, 1, 2, 3, 4].map((i) => ({ base: `$[${i}]`, value: variant(i) })), { upsert: false });
});

describe("content search", () => {
  it("finds a phrase inside a tool result: the four trials of task 0 (Mia Li's address from get_user_details)", async () => {
    const found = await ids({ text: '"975 sunset drive"' });
    expect(found.sort()).toEqual([0, 1, 2, 3].map((n) => `taubench-gpt-4o-airline-task0-trial${n}`));
    const rows = await prisma().trace.findMany({ where: { traceId: { in: found } }, select: { id: true } });
    const hits = await searchSnippets(rows.map((r) => r.id), '"975 sunset drive"');
    for (const { hits: [first] } of hits.values()) {
      expect(first).toMatchObject({ type: "tool_result", tool: "get_user_details" });
      expect(first!.snippet).toContain("975 Sunset Drive");
    }
  });

  it("needs every term, matches agents, tools and metadata, and takes % literally", async () => {
    expect((await ids({ text: '"975 sunset drive" cancel_reservation' })).length).toBeLessThan(4);
    expect(await ids({ text: "browser.search", system: "paper" })).toEqual(["ex-4", "ex-3", "ex-2", "ex-1", "ex-0"]);
    expect((await ids({ text: "sierra-research/tau-bench", limit: "500" })).length).toBe(200);
    expect(await ids({ text: "100%_no_such" })).toEqual([]);
  });
});

describe("ranked content search", () => {
  // an independent reading of "whole word": no letter, digit or _ on either side
  const whole = (text: string, term: string) => new RegExp(`(?<![\\p{L}\\p{N}_])${term}(?![\\p{L}\\p{N}_])`, "iu").test(text);

  it("puts traces where every term stands as a whole word first; fragments (\"cat\" in \"category\") after, each part newest first", async () => {
    const ranked = await ids({ text: "cat", limit: "500" });
    const rows = await prisma().trace.findMany({ where: { traceId: { in: ranked } }, select: { id: true, traceId: true, metadata: true, content: { select: { content: true } }, events: { select: { agent: true, tool: true } } } });
    const isWhole = new Map(rows.map((r) => [r.traceId, [JSON.stringify(r.metadata), ...r.content.map((c) => c.content), ...r.events.flatMap((e) => [e.agent, e.tool ?? ""])].some((t) => whole(t, "cat"))]));
    const flags = ranked.map((id) => isWhole.get(id)!);
    const wholeCount = flags.filter(Boolean).length;
    expect(wholeCount).toBeGreaterThan(0);
    expect(wholeCount).toBeLessThan(ranked.length);
    expect(flags).toEqual(ranked.map((_, i) => i < wholeCount));
    const dbId = new Map(rows.map((r) => [r.traceId, r.id]));
    for (const part of [ranked.slice(0, wholeCount), ranked.slice(wholeCount)]) {
      const order = part.map((id) => dbId.get(id)!);
      expect(order).toEqual([...order].sort((a, b) => b - a));
    }
    // the same traces in creation order when asked for, and pages of the ranking join up exactly
    expect((await ids({ text: "cat", limit: "500", sort: "created" })).sort()).toEqual([...ranked].sort());
    const pages: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listTraces(traceListQuery.parse({ text: "cat", limit: "7", ...(cursor && { cursor }) }));
      pages.push(...page.traces.map((t) => t.trace_id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(pages).toEqual(ranked);
  });

  it("past MAX_RANKED matches the page is in creation order and says so", async () => {
    const query = traceListQuery.parse({ text: "cat", limit: "500" });
    expect((await listTraces(query)).order).toBe("match");
    const many = await listTraces(query, null, { total: { n: MAX_RANKED + 1, at_least: false } });
    expect(many.order).toBe("created");
    expect(many.traces.map((t) => t.trace_id)).toEqual(await ids({ text: "cat", limit: "500", sort: "created" }));
  });

  it("a common term: the page found by walking the list is the same, pages and all; the total says at least how many; no ranking", async () => {
    // "cat" and a phrase: read up to 3 matching rows per source, both are common here, as a word in a tenth of 30 M events is
    for (const text of ["cat", '"the reservation"']) {
      const exact = await countTraces({ text });
      expect(exact).toBeGreaterThan(10);
      const common = await scanSearch({ text }, 3);
      expect(common!.every((s) => !s.complete)).toBe(true);
      const whole = await scanSearch({ text });
      expect(whole!.every((s) => s.complete)).toBe(true);
      expect(await listTotal({ text }, null, whole)).toEqual({ n: exact, at_least: false });
      const bound = await listTotal({ text }, null, common);
      expect(bound.at_least).toBe(true);
      expect(bound.n).toBeGreaterThan(0);
      expect(bound.n).toBeLessThanOrEqual(exact);
      // pages of 4, newest first, forward then back: the same traces either way
      const walk = async (scans: Awaited<ReturnType<typeof scanSearch>>) => {
        const seen: string[][] = [];
        let page = await listTraces(traceListQuery.parse({ text, sort: "created", limit: "4" }), null, { scans });
        seen.push(page.traces.map((t) => t.trace_id));
        while (page.next_cursor) {
          page = await listTraces(traceListQuery.parse({ text, sort: "created", limit: "4", cursor: page.next_cursor }), null, { scans });
          seen.push(page.traces.map((t) => t.trace_id));
        }
        const back = await listTraces(traceListQuery.parse({ text, sort: "created", limit: "4", before: page.prev_cursor! }), null, { scans });
        return { seen, back: back.traces.map((t) => t.trace_id) };
      };
      const a = await walk(common);
      expect(a).toEqual(await walk(whole));
      expect(a.seen.flat()).toHaveLength(exact);
      // asked to rank, a common term is listed newest first, and says so
      const ranked = await listTraces(traceListQuery.parse({ text, limit: "500" }), null, { scans: common });
      expect(ranked.order).toBe("created");
      expect(ranked.traces.map((t) => t.trace_id)).toEqual(a.seen.flat());
    }
  });

  it("says for each snippet whether a term matched as a word or inside one", async () => {
    const [first] = await listTraces(traceListQuery.parse({ text: '"975 sunset drive"', limit: "1" })).then((p) => p.traces);
    const hits = await searchSnippets([first!.id], '"975 sunset drive"');
    expect(hits.get(first!.id)!.hits[0]!.matched).toEqual([{ term: "975 sunset drive", whole: true }]);
  });
});

describe("substring filters", () => {
  it("system, task and group by part of the name, any case; the exact filters stay exact", async () => {
    expect(await ids({ system_contains: "APE", limit: "500" })).toEqual(["ex-4", "ex-3", "ex-2", "ex-1", "ex-0"]);
    expect(await ids({ system: "pape" })).toEqual([]);
    const task = await ids({ task_contains: "TASK1", limit: "500" });
    expect(task.length).toBeGreaterThan(4);
    expect(task.every((id) => /-task1\d*-/.test(id))).toBe(true);
    const groups = await ids({ group_contains: "airline-task0", limit: "500" });
    expect(groups.length).toBeGreaterThanOrEqual(4);
    expect(await countTraces(traceListQuery.parse({ group_contains: "no-such-group-part" }))).toBe(0);
  });
});

describe("structured filters", () => {
  it("event type, agent, tool, error status, E1, tokens and cost ranges", async () => {
    expect(await ids({ status: "error", system: "paper" })).toEqual(["ex-2"]);
    // tau-bench runs whose tools answered "Error: ..." (36 of the 200)
    expect(await countTraces(traceListQuery.parse({ status: "error", q: "taubench" }))).toBe(36);
    expect(await ids({ system: "paper", tokens_min: "100", tokens_max: "300" })).toEqual(["ex-2", "ex-1", "ex-0"]);
    expect(await ids({ cost_min: "0.2" })).toEqual(["ex-1"]);
    expect(await countTraces(traceListQuery.parse({ tool: "get_user_details" }))).toBeGreaterThan(100);
    expect(await countTraces(traceListQuery.parse({ agent: "browser.search" }))).toBe(5);
    expect(await countTraces(traceListQuery.parse({ event_type: "spawn", system: "paper" }))).toBe(5);
    // tau-bench: 84 of the 200 runs succeeded (reward 1)
    expect(await countTraces(traceListQuery.parse({ e1: "1", q: "taubench" }))).toBe(84);
    expect(await countTraces(traceListQuery.parse({}))).toBe(205);
  });

  it("replays and forks: left out, or only them", async () => {
    expect(await ids({ system: "paper", replay: "1" })).toEqual(["ex-3"]);
    expect((await ids({ system: "paper", replay: "0" })).sort()).toEqual(["ex-0", "ex-1", "ex-2", "ex-4"]);
    expect(await countTraces(traceListQuery.parse({ replay: "0" }))).toBe(204);
    expect(traceListQuery.safeParse({ replay: "yes" }).success).toBe(false);
  });
});

describe("sorting and paging both ways", () => {
  it("sorts by tokens (nulls last) and walks forward and back with the same pages", async () => {
    const sort = { system: "paper", sort: "tokens", dir: "desc", limit: "2" };
    const p1 = await listTraces(traceListQuery.parse(sort));
    // tokens: ex-1 300 and ex-2 300 (ties by id, newest first), ex-0 100, ex-4 50, ex-3 0
    expect(p1.traces.map((t) => [t.trace_id, t.tokens])).toEqual([["ex-2", 300], ["ex-1", 300]]);
    expect(p1.prev_cursor).toBeNull();
    const p2 = await listTraces(traceListQuery.parse({ ...sort, cursor: p1.next_cursor! }));
    expect(p2.traces.map((t) => t.trace_id)).toEqual(["ex-0", "ex-4"]);
    const p3 = await listTraces(traceListQuery.parse({ ...sort, cursor: p2.next_cursor! }));
    expect(p3).toMatchObject({ traces: [{ trace_id: "ex-3", tokens: 0 }], next_cursor: null });
    const back = await listTraces(traceListQuery.parse({ ...sort, before: p3.prev_cursor! }));
    expect(back.traces.map((t) => t.trace_id)).toEqual(["ex-0", "ex-4"]);
    const first = await listTraces(traceListQuery.parse({ ...sort, before: back.prev_cursor! }));
    expect(first.traces.map((t) => t.trace_id)).toEqual(["ex-2", "ex-1"]);
    expect(first.prev_cursor).toBeNull();
  });

  it("sorts by cost ascending (ties by id, ascending too) with traces without a price last, and by errors", async () => {
    expect(await ids({ system: "paper", sort: "cost", dir: "asc" })).toEqual(["ex-1", "ex-0", "ex-2", "ex-3", "ex-4"]);
    expect((await ids({ system: "paper", sort: "errors", dir: "desc" }))[0]).toBe("ex-2");
    const [row] = (await listTraces(traceListQuery.parse({ q: "taubench-gpt-4o-airline-task0-trial0" }))).traces;
    expect(row).toMatchObject({ agents: 2, clock: "steps" });
  });
});

describe("paging across the traces without a value", () => {
  it("pages of 2 by cost, either direction, forward and back, cross from the priced trace to the unpriced ones as the full list does", async () => {
    for (const dir of ["asc", "desc"] as const) {
      const sort = { system: "paper", sort: "cost", dir };
      const whole = await ids({ ...sort, limit: "500" });
      // only ex-1 has a price: it comes first either way, the other four follow by id in the page's direction
      expect(whole).toEqual(dir === "asc" ? ["ex-1", "ex-0", "ex-2", "ex-3", "ex-4"] : ["ex-1", "ex-4", "ex-3", "ex-2", "ex-0"]);
      const pages: string[][] = [];
      let page = await listTraces(traceListQuery.parse({ ...sort, limit: "2" }));
      pages.push(page.traces.map((t) => t.trace_id));
      while (page.next_cursor) {
        page = await listTraces(traceListQuery.parse({ ...sort, limit: "2", cursor: page.next_cursor }));
        pages.push(page.traces.map((t) => t.trace_id));
      }
      expect(pages.flat()).toEqual(whole);
      // and back from the last page to the first, page by page
      for (let i = pages.length - 2; i >= 0; i--) {
        page = await listTraces(traceListQuery.parse({ ...sort, limit: "2", before: page.prev_cursor! }));
        expect(page.traces.map((t) => t.trace_id)).toEqual(pages[i]);
      }
      expect(page.prev_cursor).toBeNull();
    }
  });
});

describe("suggestions", () => {
  it("lists the stored systems, tasks and groups", async () => {
    const facets = await traceFacets(null);
    expect(facets.systems).toContain("paper");
    expect(facets.tasks.length).toBeGreaterThanOrEqual(50);
    expect(facets.groups.length).toBe(50);
  });

  it("only of the projects the visitor may read (a member of another project sees none of these)", async () => {
    const inDefault = await traceFacets(["default"]);
    expect(inDefault.projects).toEqual(["default"]);
    expect(inDefault.systems).toContain("paper");
    expect(inDefault.groups.length).toBe(50);
    const elsewhere = await traceFacets(["no-such-project"]);
    expect(elsewhere).toEqual({ projects: [], systems: [], tasks: [], groups: [] });
    expect(await traceFacets([])).toEqual({ projects: [], systems: [], tasks: [], groups: [] });
  });
});
