/**
 * Pieces of the graph picture (picture.ts): XML escaping of untrusted
 * text, the two palettes, the time axis ticks, glyphs and edge samples,
 * and the legend. Everything returns SVG text; nothing reads the DOM.
 */
import { scaleLinear } from "d3";
import { axisLabel, type Clock } from "../format";
import type { EdgeType, EventType } from "../trace/types";
import { LOOK } from "./emphasis";
import { ORDER_STEP, type Spacing } from "./layout";
import { EDGE_VISUALS, EVENT_VISUALS, ICON_OFFSET, SHAPE_PATHS } from "./visual";

/**
 * Characters XML 1.0 forbids (C0 controls but tab, LF and CR; U+FFFE/U+FFFF;
 * lone surrogates) and the C1 controls it discourages: replaced by U+FFFD so
 * that a hostile string can neither break the document nor hide in it.
 */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text (trace content is untrusted LLM output) made safe for an XML text node or attribute value. */
export function xml(text: string): string {
  return text.replace(NOT_XML, "\uFFFD").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** A number as an SVG coordinate: at most 1 decimal, no "-0". */
export function n(value: number): string {
  const r = Math.round(value * 10) / 10;
  return String(r === 0 ? 0 : r);
}

/** Rough advance width of `text` at `size` px in a sans-serif font (for layout only: text never depends on it being exact). */
export function textWidth(text: string, size: number): number {
  return [...text].length * size * 0.58;
}

/** At most `max` characters, an ellipsis marking a cut (never a silent truncation). */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(1, max - 1)).join("")}…`;
}

export type Theme = "light" | "dark";

export interface Palette {
  background: string;
  ink: string;
  muted: string;
  stripe: string;
  grid: string;
  badge: string;
  badgeInk: string;
}

export const PALETTES: Readonly<Record<Theme, Palette>> = {
  light: { background: "#ffffff", ink: "#0f172a", muted: "#475569", stripe: "#f1f5f9", grid: "#cbd5e1", badge: "#0f172a", badgeInk: "#ffffff" },
  dark: { background: "#0f172a", ink: "#f1f5f9", muted: "#cbd5e1", stripe: "#1e293b", grid: "#475569", badge: "#f1f5f9", badgeInk: "#0f172a" },
};

/** Rings the picture draws around events (the view's marks; hover and lineage are not part of a picture). */
export const PICTURE_RINGS: readonly (readonly [number, string | null, string])[] = [
  [LOOK.selected, null, "selected"],
  [LOOK.highlighted, "#0891b2", "named by the link (highlighted)"],
  [LOOK.taint, "#dc2626", "tainted by untrusted input"],
  [LOOK.critical, "#7c3aed", "on the critical path"],
  [LOOK.errorSource, "#b91c1c", "error source"],
  [LOOK.errorDescendant, "#f97316", "downstream of an error"],
  [LOOK.tail, "#64748b", "after the stop (tail)"],
];

/** The colour of a ring (null in the table: the theme's ink). */
export const ringColour = (colour: string | null, palette: Palette) => colour ?? palette.ink;

/** What the x axis counts, in words: the clock is named, never assumed. */
export function axisTitle(spacing: Spacing, clock: Clock): string {
  if (spacing === "order") return "x: event order (#)";
  return clock === "steps" ? "x: time in steps" : "x: time in seconds";
}

/** The unit printed at the axis' left end ("t (s)", "step", "event #"). */
export function axisUnit(spacing: Spacing, clock: Clock): string {
  return spacing === "order" ? "event #" : axisLabel(clock);
}

export interface Tick {
  /** World x. */
  x: number;
  label: string;
}

/** Axis ticks for the world x range [x0, x1]: round values on the trace's clock (integers for event order). */
export function axisTicks(spacing: Spacing, scale: number, origin: number, x0: number, x1: number, count = 8): Tick[] {
  const toValue = (x: number) => (spacing === "time" ? origin + x / scale : x / ORDER_STEP);
  const toWorld = (v: number) => (spacing === "time" ? (v - origin) * scale : v * ORDER_STEP);
  const s = scaleLinear().domain([toValue(x0), toValue(x1)]);
  const format = s.tickFormat(count);
  return s
    .ticks(count)
    .filter((v) => spacing === "time" || Number.isInteger(v))
    .map((v) => ({ x: toWorld(v), label: spacing === "time" ? format(v) : String(v) }));
}

/** An event type's glyph (shape, colour, icon) in a size x size box at (x, y). */
export function glyph(type: EventType, x: number, y: number, size = 24): string {
  const v = EVENT_VISUALS[type];
  const [ox, oy] = ICON_OFFSET[v.shape];
  const k = size / 24;
  return (
    `<g transform="translate(${n(x)} ${n(y)})${k === 1 ? "" : ` scale(${k})`}">` +
    `<path d="${SHAPE_PATHS[v.shape]}" fill="${v.colour}" stroke="#0f172a" stroke-opacity="0.35"/>` +
    `<path d="${v.icon}" transform="translate(${ox} ${oy})" fill="none" stroke="${v.ink}" stroke-width="1.7" stroke-linecap="round" stroke-linejoin="round"/></g>`
  );
}

/** A closed arrowhead whose tip is at (x, y), pointing right (edges leave and enter nodes horizontally). */
export function arrowhead(x: number, y: number, colour: string, opacity = 1): string {
  return `<path d="M${n(x)} ${n(y)}L${n(x - 8)} ${n(y - 4)}L${n(x - 8)} ${n(y + 4)}Z" fill="${colour}"${opacity < 1 ? ` fill-opacity="${opacity}"` : ""}/>`;
}

/** A short sample of an edge kind's line, as in the view's legend. */
export function edgeSample(kind: EdgeType, x: number, y: number): string {
  const v = EDGE_VISUALS[kind];
  return `<line x1="${n(x)}" y1="${n(y)}" x2="${n(x + 24)}" y2="${n(y)}" stroke="${v.colour}" stroke-width="${v.width + 0.5}"${v.dash ? ` stroke-dasharray="${v.dash}"` : ""}/>${arrowhead(x + 32, y, v.colour)}`;
}

/** One legend entry: a swatch drawn in a 32 x 24 box, then its label. */
export interface LegendItem {
  swatch: (x: number, y: number) => string;
  label: string;
  /** Kind of entry, for tests and tools: "event", "edge", "mark". */
  kind: string;
}

export interface LegendSection {
  heading: string;
  items: LegendItem[];
}

const LEGEND_FONT = 12;
const LEGEND_ROW = 24;
const SWATCH = 36;

/** The legend laid out in rows that wrap at `width`; returns its SVG and height. */
export function legend(sections: readonly LegendSection[], x0: number, y0: number, width: number, palette: Palette): { svg: string; height: number } {
  const parts: string[] = [`<g data-part="legend">`];
  let y = y0;
  for (const section of sections) {
    if (section.items.length === 0) continue;
    parts.push(`<text x="${n(x0)}" y="${n(y + 14)}" font-size="${LEGEND_FONT}" font-weight="700" fill="${palette.muted}" letter-spacing="0.5">${xml(section.heading.toUpperCase())}</text>`);
    y += LEGEND_ROW - 4;
    let x = x0;
    for (const item of section.items) {
      const w = SWATCH + textWidth(item.label, LEGEND_FONT) + 18;
      if (x > x0 && x + w > x0 + width) {
        x = x0;
        y += LEGEND_ROW;
      }
      parts.push(
        `<g data-legend="${xml(item.kind)}">${item.swatch(x, y)}<text x="${n(x + SWATCH)}" y="${n(y + 16)}" font-size="${LEGEND_FONT}" fill="${palette.ink}">${xml(item.label)}</text></g>`,
      );
      x += w;
    }
    y += LEGEND_ROW + 6;
  }
  parts.push("</g>");
  return { svg: parts.join(""), height: y - y0 };
}
