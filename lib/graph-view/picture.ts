/**
 * The graph as a picture for slides: a standalone, pure SVG document
 * (no foreignObject, no HTML, no CSS, no scripts, no external references)
 * built from the layout model, not from the DOM. It carries a title (trace
 * id, task, system), lane names, a time axis that names its clock, the
 * events, edges and marks as the view draws them, and a legend; no zoom
 * buttons, minimap or attribution. Every string from the trace is escaped
 * (it is untrusted LLM output). The PNG export rasterises this same text.
 */
import type { Clock } from "../format";
import { EDGE_TYPES, EVENT_TYPES, type EventType } from "../trace/types";
import { creditColour, inkOn } from "./credit-colour";
import { LOOK } from "./emphasis";
import { NODE_HEIGHT, NODE_MIN_WIDTH } from "./layout";
import type { LayoutSummary } from "./protocol";
import type { Scene, SceneEvent, WorldRect } from "./scene-types";
import { clusterNodeId, eventNodeId } from "./scene-types";
import { arrowhead, axisTicks, axisTitle, axisUnit, clip, edgeSample, glyph, legend, n, PALETTES, PICTURE_RINGS, ringColour, textWidth, xml, type LegendSection, type Palette, type Theme } from "./picture-parts";
import { edgeBit, EDGE_VISUALS, EVENT_VISUALS } from "./visual";

export interface PictureLane {
  agent: string;
  role: string | null;
  depth: number;
}

export interface PictureInput {
  traceId: string;
  task: string | null;
  /** The run's instruction (its task definition) when it has one: the subtitle leads with it, clipped to the width. */
  question?: string | null;
  system: string | null;
  lanes: readonly PictureLane[];
  clock: Clock;
  layout: LayoutSummary;
  /** What the view draws now (the whole trace up to 600 events, else the window around the viewport). */
  scene: Scene;
  /** Events in the trace. */
  totalEvents: number;
  /** Edge kinds the view shows (bit per EDGE_TYPES index). */
  edgeMask: number;
  /** The view's marks on an event (LOOK bits; hover is ignored); none when absent. */
  lookOf?: (seq: number, roles: number, id: string) => number;
  /** Half-width of the credit colour scale when the credit overlay is on, else null. */
  creditExtent: number | null;
  /** The stop verdict shown on the STOP badge. */
  verdict: string | null;
  theme: Theme;
}

export interface Picture {
  svg: string;
  width: number;
  height: number;
}

const M = 16;
const LANE_COLUMN = 200;
const HEADER = 62;
const AXIS = 30;
/** Room above the top lane (a STOP badge) and right of the last event (its caption). */
const PAD_TOP = 24;
const PAD_RIGHT = 128;
/** Wider worlds are compressed along x (glyphs keep their size): a slide is at most this wide. */
const MAX_PLOT_WIDTH = 1800;
const MIN_WIDTH = 720;
const FONT = `font-family="Inter, 'Helvetica Neue', Arial, sans-serif"`;
const HIDDEN_LOOKS = LOOK.hovered | LOOK.ancestor | LOOK.descendant;

/** The world rectangle the picture shows: the whole trace when the scene holds all of it, else the scene's window. */
export function pictureRegion(scene: Scene, layout: LayoutSummary, totalEvents: number): WorldRect {
  const whole = { x0: 0, y0: 0, x1: layout.width, y1: layout.height };
  if (scene.level === "events" && scene.events.length === totalEvents) return whole;
  const w = scene.window;
  return { x0: Math.max(0, w.x0), y0: Math.max(0, w.y0), x1: Math.min(layout.width, w.x1), y1: Math.min(layout.height, w.y1) };
}

/** Builds the picture. Pure: the same input gives the same text. */
export function graphPicture(input: PictureInput): Picture {
  const palette = PALETTES[input.theme];
  const region = pictureRegion(input.scene, input.layout, input.totalEvents);
  const regionWidth = Math.max(1, region.x1 - region.x0);
  const kx = Math.min(1, MAX_PLOT_WIDTH / regionWidth);
  const plotLeft = M + LANE_COLUMN;
  const plotTop = HEADER + AXIS;
  const plotWidth = regionWidth * kx + PAD_RIGHT;
  const plotHeight = region.y1 - region.y0 + PAD_TOP;
  const width = Math.ceil(Math.max(MIN_WIDTH, plotLeft + plotWidth + M));
  const X = (x: number) => plotLeft + (x - region.x0) * kx;
  const Y = (y: number) => plotTop + PAD_TOP + (y - region.y0);
  const clipId = "plot";

  const body: string[] = [];
  const whole = region.x0 === 0 && region.y0 === 0 && region.x1 === input.layout.width && region.y1 === input.layout.height;
  body.push(header(input, palette, width, whole ? null : windowNote(input.scene)));
  body.push(lanes(input, region, palette, { plotLeft, plotWidth, Y }));
  body.push(axis(input, region, palette, { X, plotTop, plotHeight }));
  body.push(`<defs><clipPath id="${clipId}"><rect x="${n(plotLeft)}" y="${n(plotTop)}" width="${n(plotWidth)}" height="${n(plotHeight)}"/></clipPath></defs>`);
  const marks = drawing(input, palette, X, Y, kx);
  body.push(`<g clip-path="url(#${clipId})" data-part="plot">${marks.svg}</g>`);
  const legendTop = plotTop + plotHeight + 20;
  const drawn = legend(legendSections(input, marks, palette), M, legendTop, width - 2 * M, palette);
  body.push(drawn.svg);
  const height = Math.ceil(legendTop + drawn.height + M);
  const svg =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT}>` +
    `<title>${xml(`Baton graph of ${input.traceId}`)}</title>` +
    `<rect width="${width}" height="${height}" fill="${palette.background}"/>${body.join("")}</svg>\n`;
  return { svg, width, height };
}

/** What a picture of part of the trace shows, said in its subtitle. */
function windowNote(scene: Scene): string {
  const drawn = scene.level === "events" ? `${scene.events.length.toLocaleString("en")} events` : `${scene.eventsInWindow.toLocaleString("en")} events in ${scene.clusters.length.toLocaleString("en")} clusters`;
  return `this picture: the view's window, ${drawn}`;
}

function header(input: PictureInput, palette: Palette, width: number, note: string | null): string {
  const facts = [`task ${input.task ?? "—"}`, `system ${input.system ?? "—"}`, `${input.totalEvents.toLocaleString("en")} events`, `${input.lanes.length.toLocaleString("en")} agents`];
  if (note) facts.push(note);
  const chars = Math.floor((width - 2 * M) / (18 * 0.58));
  const small = Math.floor((width - 2 * M) / (12 * 0.58));
  // the question a person asks of the run, on one line; the facts keep their room after it
  const question = input.question?.replace(/\s+/g, " ").trim();
  const rest = facts.join(" · ");
  // the question keeps at least 60% of the line, the facts after it are cut first
  const line = question ? clip(`${clip(`“${question}”`, Math.max(Math.floor(small * 0.6), small - rest.length - 3))} · ${rest}`, small) : rest;
  return (
    `<g data-part="title"><text x="${M}" y="${M + 18}" font-size="18" font-weight="700" fill="${palette.ink}">${xml(clip(input.traceId, chars))}</text>` +
    `<text x="${M}" y="${M + 38}" font-size="12" fill="${palette.muted}">${xml(line)}</text></g>`
  );
}

function lanes(input: PictureInput, region: WorldRect, palette: Palette, at: { plotLeft: number; plotWidth: number; Y: (y: number) => number }): string {
  const out: string[] = [`<g data-part="lanes">`];
  const tops = input.layout.laneTop;
  for (let l = 0; l < input.lanes.length; l++) {
    const top = tops[l]!;
    const bottom = tops[l + 1]!;
    if (bottom <= region.y0 || top >= region.y1) continue;
    const y0 = at.Y(Math.max(top, region.y0));
    const y1 = at.Y(Math.min(bottom, region.y1));
    const lane = input.lanes[l]!;
    if (l % 2 === 1) out.push(`<rect x="${M}" y="${n(y0)}" width="${n(at.plotLeft - M + at.plotWidth)}" height="${n(y1 - y0)}" fill="${palette.stripe}"/>`);
    const indent = M + 8 + Math.min(lane.depth, 6) * 12;
    const chars = Math.floor((at.plotLeft - indent - 8) / (13 * 0.58));
    const name = `${lane.depth > 0 ? "└ " : ""}${lane.agent}`;
    const mid = (y0 + y1) / 2;
    const withRole = lane.role !== null && y1 - y0 >= 34;
    out.push(`<text data-lane="${l}" x="${n(indent)}" y="${n(withRole ? mid - 2 : mid + 4)}" font-size="13" font-weight="700" fill="${palette.ink}">${xml(clip(name, chars))}</text>`);
    if (withRole) out.push(`<text x="${n(indent)}" y="${n(mid + 13)}" font-size="11" fill="${palette.muted}">${xml(clip(lane.role!, chars + 2))}</text>`);
  }
  out.push(`<line x1="${n(at.plotLeft)}" y1="${HEADER}" x2="${n(at.plotLeft)}" y2="${n(at.Y(region.y1))}" stroke="${palette.grid}"/></g>`);
  return out.join("");
}

function axis(input: PictureInput, region: WorldRect, palette: Palette, at: { X: (x: number) => number; plotTop: number; plotHeight: number }): string {
  const { spacing, scale, origin } = input.layout;
  const out: string[] = [`<g data-part="axis">`];
  out.push(`<text x="${M}" y="${HEADER + 19}" font-size="12" font-weight="700" fill="${palette.muted}">${xml(`${axisUnit(spacing, input.clock)} — ${axisTitle(spacing, input.clock)}`)}</text>`);
  const bottom = at.plotTop + at.plotHeight;
  out.push(`<line x1="${n(at.X(region.x0))}" y1="${n(at.plotTop)}" x2="${n(at.X(region.x1))}" y2="${n(at.plotTop)}" stroke="${palette.muted}"/>`);
  for (const tick of axisTicks(spacing, scale, origin, region.x0, region.x1)) {
    const x = at.X(tick.x);
    out.push(
      `<line x1="${n(x)}" y1="${n(at.plotTop)}" x2="${n(x)}" y2="${n(bottom)}" stroke="${palette.grid}" stroke-dasharray="2 4"/>` +
        `<line x1="${n(x)}" y1="${n(at.plotTop - 6)}" x2="${n(x)}" y2="${n(at.plotTop)}" stroke="${palette.muted}"/>` +
        `<text data-tick="${xml(tick.label)}" x="${n(x)}" y="${n(at.plotTop - 9)}" font-size="11" text-anchor="middle" fill="${palette.muted}">${xml(tick.label)}</text>`,
    );
  }
  out.push("</g>");
  return out.join("");
}

interface Drawn {
  svg: string;
  types: Set<EventType>;
  looks: number;
  stop: boolean;
}

/** Edges first (under the nodes), then clusters or events with their rings, captions and badges. */
function drawing(input: PictureInput, palette: Palette, X: (x: number) => number, Y: (y: number) => number, kx: number): Drawn {
  const out: string[] = [];
  const types = new Set<EventType>();
  let looks = 0;
  let stop = false;
  const boxes = new Map<string, { x: number; y: number; w: number; h: number }>();
  const lookOf = (ev: SceneEvent) => (input.lookOf?.(ev.seq, ev.roles, ev.id) ?? 0) & ~HIDDEN_LOOKS;
  const eventLooks = new Map<number, number>();
  for (const ev of input.scene.events) {
    boxes.set(eventNodeId(ev.seq), { x: X(ev.x), y: Y(ev.y), w: Math.max(NODE_MIN_WIDTH, ev.w * kx), h: NODE_HEIGHT });
    eventLooks.set(ev.seq, lookOf(ev));
  }
  for (const c of input.scene.clusters) boxes.set(clusterNodeId(c.key), { x: X(c.x), y: Y(c.y), w: Math.max(4, c.w * kx), h: c.h });

  out.push(`<g data-part="edges" fill="none">`);
  for (const e of input.scene.edges) {
    const a = boxes.get(e.source);
    const b = boxes.get(e.target);
    if (!a || !b) continue;
    const kind = EDGE_TYPES[e.kind]!;
    const v = EDGE_VISUALS[kind];
    const dim = e.src >= 0 && (((eventLooks.get(e.src) ?? 0) | (eventLooks.get(e.dst) ?? 0)) & LOOK.dim) !== 0;
    const opacity = dim ? 0.12 : 0.85;
    const sx = a.x + a.w;
    const sy = a.y + a.h / 2;
    const tx = b.x;
    const ty = b.y + b.h / 2;
    // React Flow's bezier between a right handle and a left handle, ending at the arrowhead's base
    const d = tx - 8 - sx;
    const c = d >= 0 ? d / 2 : 0.25 * 25 * Math.sqrt(-d);
    const width = e.count > 1 ? v.width * Math.min(4, 1 + Math.log2(e.count) / 2) : v.width;
    out.push(
      `<path data-edge="${kind}" d="M${n(sx)} ${n(sy)}C${n(sx + c)} ${n(sy)} ${n(tx - 8 - c)} ${n(ty)} ${n(tx - 8)} ${n(ty)}" stroke="${v.colour}" stroke-width="${n(width)}" stroke-opacity="${opacity}"${v.dash ? ` stroke-dasharray="${v.dash}"` : ""}/>` +
        arrowhead(tx, ty, v.colour, opacity),
    );
  }
  out.push("</g>");

  out.push(`<g data-part="clusters">`);
  for (const c of input.scene.clusters) {
    const box = boxes.get(clusterNodeId(c.key))!;
    const type = EVENT_TYPES[c.type]!;
    types.add(type);
    const colour = EVENT_VISUALS[type].colour;
    out.push(`<rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.w)}" height="${n(box.h)}" rx="3" fill="${colour}" fill-opacity="0.35" stroke="${colour}"/>`);
    if (box.w >= 22 && box.h >= 14) out.push(`<text x="${n(box.x + box.w / 2)}" y="${n(box.y + box.h / 2 + 4)}" font-size="11" text-anchor="middle" fill="${palette.ink}">${c.count}</text>`);
  }
  out.push(`</g><g data-part="events">`);
  const badges: string[] = [];
  for (const ev of input.scene.events) {
    const box = boxes.get(eventNodeId(ev.seq))!;
    const look = eventLooks.get(ev.seq)!;
    const type = EVENT_TYPES[ev.type]!;
    types.add(type);
    looks |= look;
    out.push(eventMark(input, palette, ev, box, look, type));
    if ((look & LOOK.stop) !== 0) {
      stop = true;
      badges.push(stopBadge(box, input.verdict, palette));
    }
  }
  // on top of everything and never faded: the stop is what a slide about a run's end points at
  out.push(`</g>${badges.join("")}`);
  return { svg: out.join(""), types, looks, stop };
}

function eventMark(input: PictureInput, palette: Palette, ev: SceneEvent, box: { x: number; y: number; w: number; h: number }, look: number, type: EventType): string {
  const v = EVENT_VISUALS[type];
  const out: string[] = [`<g data-event="${xml(ev.id)}"${(look & LOOK.dim) !== 0 ? ` opacity="0.2"` : ""}><title>${xml(`${ev.id} · ${ev.label}`)}</title>`];
  const credit = input.creditExtent === null ? null : creditColour(ev.credit, input.creditExtent);
  let ring = 0;
  for (const [bit, colour] of PICTURE_RINGS) {
    if ((look & bit) === 0) continue;
    ring += 2.5;
    out.push(`<rect x="${n(box.x - ring)}" y="${n(box.y - ring)}" width="${n(box.w + 2 * ring)}" height="${n(box.h + 2 * ring)}" rx="${n(6 + ring)}" fill="none" stroke="${ringColour(colour, palette)}" stroke-width="2.5"/>`);
  }
  if (ev.bar || credit) {
    const fill = credit ?? v.colour;
    out.push(`<rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.w)}" height="${NODE_HEIGHT}" rx="6" fill="${fill}"${credit ? "" : ` fill-opacity="0.19"`}${ev.bar ? ` stroke="${v.colour}"` : ""}/>`);
  }
  const small = credit !== null && !ev.bar;
  out.push(small ? glyph(type, box.x + 4, box.y + 4, 16) : glyph(type, box.x, box.y));
  if (ev.bar && box.w > 64) {
    const chars = Math.floor((box.w - 34) / (12 * 0.58));
    out.push(`<text x="${n(box.x + 28)}" y="${n(box.y + 16)}" font-size="12" fill="${credit ? inkOn(credit) : palette.ink}">${xml(clip(ev.label, chars))}</text>`);
  }
  out.push(`<text x="${n(box.x)}" y="${n(box.y + 37)}" font-size="11" fill="${palette.muted}">${xml(clip(ev.id, 28))}</text>`);
  if ((look & LOOK.errorSource) !== 0) {
    out.push(`<circle cx="${n(box.x + box.w)}" cy="${n(box.y)}" r="7" fill="#b91c1c"/><text x="${n(box.x + box.w)}" y="${n(box.y + 3.5)}" font-size="10" font-weight="700" text-anchor="middle" fill="#ffffff">!</text>`);
  }
  out.push("</g>");
  return out.join("");
}

function stopBadge(box: { x: number; y: number }, verdict: string | null, palette: Palette): string {
  const label = `STOP${verdict ? ` · ${verdict}` : ""}`;
  return `<g data-part="stop-badge"><rect x="${n(box.x)}" y="${n(box.y - 20)}" width="${n(textWidth(label, 10) * 1.1 + 10)}" height="16" rx="3" fill="${palette.badge}"/><text x="${n(box.x + 5)}" y="${n(box.y - 8)}" font-size="10" font-weight="700" fill="${palette.badgeInk}">${xml(label)}</text></g>`;
}

function legendSections(input: PictureInput, drawn: Drawn, palette: Palette): LegendSection[] {
  const events = EVENT_TYPES.filter((t) => drawn.types.has(t)).map((t) => ({ kind: "event", label: EVENT_VISUALS[t].label, swatch: (x: number, y: number) => glyph(t, x + 2, y + 2, 20) }));
  const edges = EDGE_TYPES.map((k) => ({
    kind: "edge",
    label: `${EDGE_VISUALS[k].label}${(input.edgeMask & edgeBit(k)) === 0 ? " (not shown)" : ""}`,
    swatch: (x: number, y: number) => edgeSample(k, x, y + 12),
  }));
  const marks = PICTURE_RINGS.filter(([bit]) => (drawn.looks & bit) !== 0).map(([, colour, label]) => ({
    kind: "mark",
    label,
    swatch: (x: number, y: number) => `<rect x="${n(x + 6)}" y="${n(y + 5)}" width="14" height="14" rx="3" fill="none" stroke="${ringColour(colour, palette)}" stroke-width="2.5"/>`,
  }));
  if (drawn.stop) {
    marks.push({ kind: "mark", label: `the stop event${input.verdict ? ` (verdict ${input.verdict})` : ""}`, swatch: (x, y) => `<rect x="${n(x)}" y="${n(y + 4)}" width="30" height="16" rx="3" fill="${palette.badge}"/><text x="${n(x + 3)}" y="${n(y + 16)}" font-size="9" font-weight="700" fill="${palette.badgeInk}">STOP</text>` });
  }
  if (input.creditExtent !== null) {
    const e = input.creditExtent;
    for (const [value, label] of [[-e, `blame ${(-e).toPrecision(3)}`], [0, "credit 0"], [e, `credit +${e.toPrecision(3)}`], [null, "no credit"]] as const) {
      marks.push({ kind: "mark", label, swatch: (x, y) => `<rect x="${n(x + 4)}" y="${n(y + 4)}" width="22" height="16" rx="3" fill="${creditColour(value, e)}" stroke="${palette.grid}"/>` });
    }
  }
  return [
    { heading: "Events", items: events },
    { heading: "Edges", items: edges },
    { heading: "Marks", items: marks },
  ];
}
