import { describe, expect, it } from "vitest";
import { ROLE } from "../metrics/roles";
import { EDGE_TYPES } from "../trace/types";
import { eventLook } from "./emphasis";
import { engineOf, exampleTrace, modelOf } from "./fixtures";
import type { Spacing } from "./layout";
import { graphPicture, type PictureInput } from "./picture";
import { axisTicks, xml } from "./picture-parts";
import { OVERLAY_BIT } from "./emphasis";
import { DEFAULT_EDGE_MASK } from "./visual";
import { DEFAULT_SCENE_OPTIONS } from "./scene-types";
import { syntheticTrace } from "../demo";

/** Elements a pure SVG picture may hold: no foreignObject, script, style, image or HTML. */
const ALLOWED = new Set(["svg", "title", "rect", "g", "text", "line", "path", "circle", "defs", "clipPath"]);

function input(overrides: Partial<PictureInput> = {}, spacing: Spacing = "time"): PictureInput {
  const trace = exampleTrace();
  const engine = engineOf(modelOf(trace));
  const { layout } = engine.layout(spacing);
  const scene = engine.scene(spacing, { view: { x0: 0, y0: 0, x1: layout.width, y1: layout.height }, zoom: 1, edgeMask: DEFAULT_EDGE_MASK });
  return {
    traceId: trace.trace_id,
    task: trace.task_id,
    system: trace.system ?? null,
    lanes: engine.meta.lanes,
    clock: engine.meta.clock,
    layout,
    scene,
    totalEvents: engine.n,
    edgeMask: DEFAULT_EDGE_MASK,
    creditExtent: null,
    verdict: null,
    theme: "light",
    ...overrides,
  };
}

const count = (svg: string, re: RegExp) => [...svg.matchAll(re)].length;
const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
const unescape = (s: string) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

describe("graphPicture on the paper's example (8 events, 4 agents, t = 0..7 s)", () => {
  const { svg, width, height } = graphPicture(input());

  it("is pure SVG: only drawing elements, no foreignObject, HTML, script or style", () => {
    const tags = new Set([...svg.matchAll(/<([a-zA-Z][\w:-]*)/g)].map((m) => m[1]!));
    expect([...tags].filter((t) => !ALLOWED.has(t))).toEqual([]);
    expect(svg).not.toMatch(/foreignObject|xhtml|<script|<style|href=/i);
    expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain(`width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"`);
  });

  it("has a title with trace id, task and system", () => {
    const t = texts(svg);
    expect(t[0]).toBe("demo-trace-001");
    expect(t[1]).toBe("task demo-task-browser-research · system illustrative · 8 events · 4 agents");
  });

  it("leads the subtitle with the run's question when it has one, on one line clipped to the width", () => {
    const short = texts(graphPicture(input({ question: "Which  flight\nis cheapest?" })).svg);
    expect(short[1]!.startsWith("“Which flight is cheapest?” · task demo-task-browser-research")).toBe(true);
    const long = graphPicture(input({ question: "why ".repeat(400) }));
    const line = texts(long.svg)[1]!;
    const room = Math.floor((long.width - 32) / (12 * 0.58));
    expect(line.startsWith("“why why")).toBe(true);
    expect(line).toContain("… · task");
    expect([...line].length).toBeLessThanOrEqual(room);
  });

  it("names each lane once, in lane order, children indented under their parent", () => {
    const lanes = [...svg.matchAll(/<text data-lane="(\d+)" x="([\d.]+)"[^>]*>([^<]*)<\/text>/g)].map((m) => [Number(m[1]), Number(m[2]), m[3]]);
    expect(lanes.map((l) => l[2])).toEqual(["orchestrator", "└ planner_1", "└ executor_1", "browser.search"]);
    // depth 0, 1, 1, 0 (nothing spawned the tool's agent): 24 px, 12 px more per level
    expect(lanes.map((l) => l[1])).toEqual([24, 36, 36, 24]);
  });

  it("draws the axis on the trace's clock, naming it: ticks 0..7 seconds", () => {
    expect(texts(svg)).toContain("t (s) — x: time in seconds");
    expect([...svg.matchAll(/data-tick="([^"]*)"/g)].map((m) => m[1])).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
  });

  it("draws one glyph and caption per event and one path per visible edge (8 edges, none temporal)", () => {
    expect(count(svg, /<g data-event="/g)).toBe(8);
    expect([...svg.matchAll(/data-edge="([a-z_]+)"/g)].map((m) => m[1]).sort()).toEqual(["aggregate", "causal", "causal", "message", "return", "spawn", "spawn", "tool_dependency"]);
    for (const id of ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]) expect(texts(svg)).toContain(id);
  });

  it("has a legend of all eight edge kinds and of the event types drawn", () => {
    const entries = (kind: string) => [...svg.matchAll(new RegExp(`<g data-legend="${kind}">.*?<text[^>]*>([^<]*)</text></g>`, "g"))].map((m) => m[1]);
    expect(entries("edge")).toEqual(["temporal (not shown)", "causal", "spawn", "message", "tool dependency", "return", "aggregate", "safety flow"]);
    expect(entries("edge")).toHaveLength(EDGE_TYPES.length);
    expect(entries("event")).toEqual(["decision", "spawn", "message", "tool call", "tool result", "return", "aggregate"]);
    expect(entries("mark")).toEqual([]);
  });

  it("is small: a few kilobytes for 8 events, about 1 KB more per event", () => {
    expect(svg.length).toBeLessThan(20_000);
  });
});

describe("graphPicture with the view's marks", () => {
  it("draws the STOP badge with its verdict inside the picture, and rings in the legend", () => {
    const overlays = OVERLAY_BIT.stop | OVERLAY_BIT.taint;
    const lookOf = (seq: number, roles: number) => eventLook(seq, seq === 7 ? roles | ROLE.stop : roles, { overlays, selected: null, hovered: null, lineage: null });
    const { svg } = graphPicture(input({ lookOf, verdict: "correct" }));
    expect(texts(svg)).toContain("STOP · correct");
    const badge = svg.match(/<rect x="([\d.]+)" y="([\d.-]+)" width="[\d.]+" height="16" rx="3"/)!;
    expect(Number(badge[2])).toBeGreaterThanOrEqual(92); // below the header and axis (62 + 30): never clipped
    const plot = svg.match(/<clipPath id="plot"><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"/)!;
    const badgeWidth = Number(svg.match(/data-part="stop-badge"><rect x="[\d.]+" y="[\d.-]+" width="([\d.]+)"/)![1]);
    expect(Number(badge[1]) + badgeWidth).toBeLessThanOrEqual(Number(plot[1]) + Number(plot[3])); // nor cut on the right
    expect(svg).toContain(`<g data-legend="mark">`);
    expect(texts(svg)).toContain("tainted by untrusted input");
    expect(texts(svg)).toContain("the stop event (verdict correct)");
  });

  it("labels a step-index clock as steps, and event order as such", () => {
    expect(texts(graphPicture(input({ clock: "steps" })).svg)).toContain("step — x: time in steps");
    expect(texts(graphPicture(input({}, "order")).svg)).toContain("event # — x: event order (#)");
  });

  it("has a dark variant on a dark background", () => {
    expect(graphPicture(input({ theme: "dark" })).svg).toContain(`fill="#0f172a"/>`);
  });
});

describe("size", () => {
  it("stays proportionate: a 24-event trace well under 200 KB, 1,000 events drawn whole under 1.5 MB", () => {
    for (const [events, limit] of [[24, 60_000], [1000, 1_500_000]] as const) {
      const trace = syntheticTrace({ events, seed: 7 });
      const engine = engineOf(modelOf(trace));
      const { layout } = engine.layout("time");
      const scene = engine.scene("time", { view: { x0: 0, y0: 0, x1: layout.width, y1: layout.height }, zoom: 1, edgeMask: DEFAULT_EDGE_MASK }, { ...DEFAULT_SCENE_OPTIONS, wholeTraceMax: 1000 });
      expect(scene.events).toHaveLength(events);
      const { svg } = graphPicture({ ...input(), traceId: trace.trace_id, lanes: engine.meta.lanes, layout, scene, totalEvents: events });
      expect(count(svg, /<g data-event="/g)).toBe(events);
      expect(svg.length, `${events} events`).toBeLessThan(limit);
    }
  });
});

describe("untrusted text", () => {
  const HOSTILE = [`</text><script>alert(1)</script>`, "]]><![CDATA[x", `"quoted" 'single' & amp;`, "bell\u0007 nul\u0000 esc\u001b del\u007f", "lone \uD800 surrogate", "<svg onload=alert(1)>"];

  it("escapes markup, quotes and ampersands, and replaces characters XML forbids", () => {
    expect(xml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect(xml("a\u0000b\u0008c\td\ne\u001fz")).toBe("a\uFFFDb\uFFFDc\td\ne\uFFFDz");
    expect(xml("😀 \uDC00")).toBe("😀 \uFFFD");
  });

  it("keeps hostile ids, agent names, task and system as text only", () => {
    const base = input();
    const hostile = graphPicture({
      ...base,
      traceId: HOSTILE[0]!,
      task: HOSTILE[1]!,
      system: HOSTILE[2]!,
      lanes: base.lanes.map((l, i) => ({ ...l, agent: HOSTILE[i + 2]!, role: HOSTILE[5]! })),
      scene: { ...base.scene, events: base.scene.events.map((e, i) => ({ ...e, id: HOSTILE[i % HOSTILE.length]!, label: HOSTILE[(i + 1) % HOSTILE.length]! })) },
    }).svg;
    const tags = new Set([...hostile.matchAll(/<([a-zA-Z][\w:-]*)/g)].map((m) => m[1]!));
    expect([...tags].filter((t) => !ALLOWED.has(t))).toEqual([]);
    expect(hostile).not.toMatch(/<script|<svg onload|]]>|<!\[CDATA/);
    // eslint-disable-next-line no-control-regex
    expect(hostile).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/);
    const t = texts(hostile).map(unescape);
    expect(t[0]).toBe(HOSTILE[0]);
    expect(t).toContain("]]><![CDATA[x");
    expect(t).toContain("bell\uFFFD nul\uFFFD esc\uFFFD del\uFFFD");
    // attribute values never end early: every quote inside one is escaped
    for (const m of hostile.matchAll(/data-event="([^"]*)"/g)) expect(m[1]).not.toMatch(/[<>]/);
  });
});

describe("axisTicks", () => {
  it("gives round values on the clock, integers only in event order", () => {
    expect(axisTicks("time", 48, 10, 0, 480).map((t) => t.label)).toEqual(["10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20"]);
    expect(axisTicks("time", 48, 10, 0, 480)[0]!.x).toBe(0);
    expect(axisTicks("order", 40, 0, 0, 120).map((t) => [t.x, t.label])).toEqual([[0, "0"], [40, "1"], [80, "2"], [120, "3"]]);
  });
});
