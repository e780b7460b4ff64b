import { describe, expect, it } from "vitest";
import { creditColumns, prepareTrace } from "../credit";
import { makeTrace } from "../graph/fixtures";
import { ROLE } from "../metrics/roles";
import { EDGE_TYPES } from "../trace/types";
import { buildGraphModel, creditPage, eventsPage } from "./build";
import { exampleTrace, modelOf } from "./fixtures";

const kinds = (types: number[]) => types.map((k) => EDGE_TYPES[k]);

describe("buildGraphModel on the paper's example", () => {
  const model = modelOf(exampleTrace(), 3);

  it("describes the trace: lanes, pages, terminal, timing", () => {
    const m = model.meta;
    expect([m.events, m.edges, m.page_size, m.pages]).toEqual([8, 8, 3, 3]);
    expect(m.lanes.map((l) => l.agent)).toEqual(["orchestrator", "planner_1", "executor_1", "browser.search"]);
    expect([m.t_min, m.t_max, m.timed, m.terminal, m.stop]).toEqual([0, 7, true, 7, null]);
    expect(m.roles.tainted).toBe(ROLE.tainted);
  });

  it("pages events in event order with the edges that end in each page", () => {
    const first = eventsPage(model, 0, 3);
    expect([first.from, first.count, first.next]).toEqual([0, 3, 3]);
    expect(first.id).toEqual(["e1", "e2", "e3"]);
    expect(first.label).toEqual(["decision", "spawn planner_1", "spawn executor_1"]);
    expect(first.edges).toEqual({ src: [0, 0], dst: [1, 2], type: [EDGE_TYPES.indexOf("spawn"), EDGE_TYPES.indexOf("spawn")] });
    const middle = eventsPage(model, 3, 3);
    expect(middle.edges.dst).toEqual([3, 3, 4, 5]);
    expect(kinds(middle.edges.type)).toEqual(["causal", "message", "tool_dependency", "return"]);
    const last = eventsPage(model, 6, 3);
    expect([last.count, last.next, last.id]).toEqual([2, null, ["e7", "e8"]]);
    expect(last.t_end).toEqual([null, null]);
  });

  it("carries the metrics roles: e6, e7, e8 tainted, e8 terminal", () => {
    const roles = [0, 3, 6].flatMap((from) => eventsPage(model, from, 3).roles);
    const tainted = roles.map((r, s) => ((r & ROLE.tainted) !== 0 ? s : -1)).filter((s) => s >= 0);
    expect(tainted).toEqual([5, 6, 7]);
    expect(roles[7]! & ROLE.terminal).toBe(ROLE.terminal);
  });

  it("labels events from their fields, never their content", () => {
    const page = eventsPage(model, 3, 3);
    expect(page.label).toEqual(["message planner_1 → executor_1", "call browser.search", "result of browser.search · untrusted"]);
  });
});

describe("pages of a trace whose events are not in time order", () => {
  // array order b, a; event order a (t 1), b (t 2)
  const trace = makeTrace({ events: [{ id: "b", t: 2, type: "aggregate", agent: "x" }, { id: "a", t: 1, type: "spawn", agent: "x", tokens: 10 }], edges: [["a", "b"]] });
  const prepared = prepareTrace(trace);
  const model = buildGraphModel(prepared);

  it("puts events and edge endpoints in event order", () => {
    const page = eventsPage(model, 0, 10);
    expect(page.id).toEqual(["a", "b"]);
    expect(page.edges).toEqual({ src: [0], dst: [1], type: [EDGE_TYPES.indexOf("causal")] });
  });

  it("reorders credit columns from array order to event order", () => {
    const columns = creditColumns(prepared, { method: "ccp" });
    const page = creditPage(model, columns, 0, 10, true);
    expect(page.total).toEqual([columns.total[1], columns.total[0]]);
    expect(page.by_family!.cost).toEqual([columns.byFamily!.cost[1], columns.byFamily!.cost[0]]);
    expect([page.method, page.preset, page.normalize, page.next]).toEqual(["ccp", "uniform", false, null]);
    expect(creditPage(model, columns, 1, 1, false).by_family).toBeNull();
  });
});
