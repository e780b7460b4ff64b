import { describe, expect, it } from "vitest";
import { ROLE } from "../metrics/roles";
import { EDGE_TYPES, EVENT_TYPES } from "../trace/types";
import { buildEdgeIndex } from "./edges";
import { layoutInput } from "./fixtures";
import { computeLayout, type Layout } from "./layout";
import { ALL_EDGES_MASK, computeScene, createSceneScratch, DEFAULT_SCENE_OPTIONS, lanesIn, type SceneOptions, type SceneSource } from "./scene";
import { laneBands } from "./scene-clusters";
import { edgeBit } from "./visual";

const kind = (name: (typeof EDGE_TYPES)[number]) => EDGE_TYPES.indexOf(name);
const type = (name: (typeof EVENT_TYPES)[number]) => EVENT_TYPES.indexOf(name);

/**
 * Six events, two per lane, spaced by event order: x = 40 * seq, width 24,
 * lanes 54 tall (tops 0, 54, 108, 162). Edges: 0->1 causal, 1->2 message,
 * 2->3 causal, 3->4 spawn, 4->5 temporal, 0->5 aggregate.
 */
function source(layout: Layout = computeLayout(layoutInput([0, 1, 2, 3, 4, 5], [null, null, null, null, null, null], [0, 0, 1, 1, 2, 2], 3, "order"))): SceneSource {
  const edges = buildEdgeIndex(
    6,
    Int32Array.from([0, 1, 2, 3, 4, 0]),
    Int32Array.from([1, 2, 3, 4, 5, 5]),
    Uint8Array.from([kind("causal"), kind("message"), kind("causal"), kind("spawn"), kind("temporal"), kind("aggregate")]),
  );
  return {
    layout,
    edges,
    ids: ["a", "b", "c", "d", "e", "f"],
    labels: ["A", "B", "C", "D", "E", "F"],
    type: Uint8Array.from([type("orchestrator_decision"), type("spawn"), type("message"), type("tool_call"), type("tool_result"), type("aggregate")]),
    roles: Uint16Array.from([0, 0, ROLE.tainted, 0, 0, ROLE.terminal]),
    tEnd: new Float64Array(6).fill(NaN),
    credit: Float64Array.from([1, 2, 3, NaN, 5, 6]),
  };
}

// wholeTraceMax 0: the 6-event fixture is not drawn whole, so windows apply
const tight: SceneOptions = { ...DEFAULT_SCENE_OPTIONS, wholeTraceMax: 0, marginX: 0, marginY: 0 };
const everything = { view: { x0: 0, y0: 0, x1: 224, y1: 162 }, zoom: 1, edgeMask: ALL_EDGES_MASK };

describe("computeScene, events level", () => {
  it("draws every event in the window with its position, data and edges", () => {
    const scene = computeScene(source(), everything, createSceneScratch(6));
    expect(scene.level).toBe("events");
    expect(scene.events.map((e) => [e.id, e.x, e.y, e.lane])).toEqual([
      ["a", 0, 8, 0], ["b", 40, 8, 0], ["c", 80, 62, 1], ["d", 120, 62, 1], ["e", 160, 116, 2], ["f", 200, 116, 2],
    ]);
    expect(scene.events.map((e) => e.credit)).toEqual([1, 2, 3, null, 5, 6]);
    expect(scene.edges.map((e) => `${e.src}>${e.dst}`).sort()).toEqual(["0>1", "0>5", "1>2", "2>3", "3>4", "4>5"]);
    expect(scene.edgesNotDrawn).toBe(0);
  });

  it("leaves out the edge kinds that are hidden", () => {
    const scene = computeScene(source(), { ...everything, edgeMask: ALL_EDGES_MASK & ~edgeBit("temporal") }, createSceneScratch(6));
    expect(scene.edges.map((e) => e.kind)).not.toContain(kind("temporal"));
    expect(scene.edges).toHaveLength(5);
  });

  it("keeps only events meeting the window and counts the edges cut by it", () => {
    const scene = computeScene(source(), { view: { x0: 70, y0: 0, x1: 130, y1: 162 }, zoom: 1, edgeMask: ALL_EDGES_MASK }, createSceneScratch(6), tight);
    expect(scene.events.map((e) => e.id)).toEqual(["c", "d"]);
    expect(scene.edges.map((e) => e.key)).toEqual(["x2"]);
    expect(scene.edgesNotDrawn).toBe(2); // 1 -> 2 comes from outside, 3 -> 4 leaves it
  });

  it("finds a bar that starts left of the window but reaches into it", () => {
    const layout = computeLayout(layoutInput([0, 5], [10, null], [0, 0], 1));
    const base = source();
    const two: SceneSource = { ...base, layout, ids: ["bar", "dot"], labels: ["", ""], type: new Uint8Array(2), roles: new Uint16Array(2), tEnd: Float64Array.from([10, NaN]), credit: null, edges: buildEdgeIndex(2, new Int32Array(0), new Int32Array(0), new Uint8Array(0)) };
    const scene = computeScene(two, { view: { x0: 80, y0: 0, x1: 90, y1: 50 }, zoom: 1, edgeMask: ALL_EDGES_MASK }, createSceneScratch(2), tight);
    expect(scene.events.map((e) => [e.id, e.bar, e.w])).toEqual([["bar", true, 96]]);
  });
});

describe("computeScene, clusters level", () => {
  const options: SceneOptions = { ...DEFAULT_SCENE_OPTIONS, wholeTraceMax: 0, detailBudget: 3, clusterPx: 100, minBandPx: 100 };
  const scene = computeScene(source(), everything, createSceneScratch(6), options);

  it("clusters by lane band and time bucket when the window holds too many events", () => {
    expect(scene.level).toBe("clusters");
    expect(scene.eventsInWindow).toBe(6);
    // lanes 0-1 form band 0 (108 px >= 100), lane 2 band 1; buckets of 100 world units
    expect(scene.clusters.map((c) => [c.key, c.count, c.laneFrom, c.laneTo])).toEqual([
      ["0.0", 3, 0, 1], ["0.1", 1, 0, 1], ["1.1", 1, 2, 2], ["1.2", 1, 2, 2],
    ]);
  });

  it("summarises each cell: bucket span, band height, dominant type, OR-ed roles, mean credit", () => {
    const first = scene.clusters[0]!;
    expect([first.x, first.w, first.y, first.h]).toEqual([0, 92, 8, 92]);
    expect(first.type).toBe(type("orchestrator_decision")); // a tie goes to the first type
    expect(first.roles & ROLE.tainted).toBe(ROLE.tainted);
    expect(first.credit).toBe(2);
    expect(scene.clusters[1]!.credit).toBeNull();
    expect([first.seqMin, first.seqMax]).toEqual([0, 2]);
  });

  it("bundles only the edges that cross bands", () => {
    // equal counts keep the order met: lane 0's event a (0 -> 5) before lane 1's d (3 -> 4)
    expect(scene.edges.map((e) => [e.source, e.target, e.kind, e.count])).toEqual([
      ["cl-0.0", "cl-1.2", kind("aggregate"), 1],
      ["cl-0.1", "cl-1.1", kind("spawn"), 1],
    ]);
  });

  it("always clusters below the minimum detail zoom", () => {
    const far = computeScene(source(), { ...everything, zoom: 0.1 }, createSceneScratch(6), { ...DEFAULT_SCENE_OPTIONS, wholeTraceMax: 5 });
    expect(far.level).toBe("clusters");
  });

  it("draws a small trace whole, whatever the view", () => {
    const whole = computeScene(source(), { view: { x0: 500, y0: 500, x1: 600, y1: 600 }, zoom: 0.01, edgeMask: ALL_EDGES_MASK }, createSceneScratch(6));
    expect([whole.level, whole.events.length, whole.window]).toEqual(["events", 6, { x0: 0, y0: 0, x1: 224, y1: 162 }]);
  });
});

describe("lanesIn and laneBands", () => {
  const layout = source().layout;
  it("finds the lanes a vertical range meets", () => {
    expect(lanesIn(layout, 0, 10)).toEqual([0, 0]);
    expect(lanesIn(layout, 60, 120)).toEqual([1, 2]);
    expect(lanesIn(layout, 500, 600)).toEqual([0, -1]);
  });

  it("groups lanes until a band is tall enough on screen", () => {
    expect(Array.from(laneBands(layout, 1, 100).band)).toEqual([0, 0, 1]);
    expect(Array.from(laneBands(layout, 1, 10).band)).toEqual([0, 1, 2]);
    expect(Array.from(laneBands(layout, 0.1, 100).band)).toEqual([0, 0, 0]);
  });
});
