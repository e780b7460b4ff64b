/**
 * How each event type and edge kind looks: one shape, colour and icon per
 * event type, one colour and dash per edge kind. Pure data shared by the
 * nodes, the edges, the legend and the overview, so a type looks the same
 * everywhere.
 */
import { EDGE_TYPES, type EdgeType, type EventType } from "../trace/types";

export type GlyphShape =
  | "diamond"
  | "triangle-up"
  | "triangle-down"
  | "circle"
  | "square"
  | "pentagon"
  | "hexagon"
  | "funnel"
  | "star"
  | "octagon";

export interface EventVisual {
  label: string;
  shape: GlyphShape;
  /** Fill of the glyph. */
  colour: string;
  /** Stroke of the icon drawn on the glyph (dark on light fills). */
  ink: string;
  /** Icon as an SVG path in a 12 x 12 box, stroked. */
  icon: string;
}

export const EVENT_VISUALS: Readonly<Record<EventType, EventVisual>> = {
  orchestrator_decision: { label: "decision", shape: "diamond", colour: "#4e79a7", ink: "#ffffff", icon: "M6 11V6.5M6 6.5L2.5 2M6 6.5L9.5 2" },
  spawn: { label: "spawn", shape: "triangle-up", colour: "#59a14f", ink: "#ffffff", icon: "M6 2.5V10M2.25 6.25H9.75" },
  despawn: { label: "despawn", shape: "triangle-down", colour: "#9c755f", ink: "#ffffff", icon: "M2.5 6H9.5" },
  message: { label: "message", shape: "circle", colour: "#76b7b2", ink: "#042f2e", icon: "M2 3.5H10V9H2ZM2 3.5L6 6.5L10 3.5" },
  tool_call: { label: "tool call", shape: "square", colour: "#f28e2b", ink: "#ffffff", icon: "M4 3L1.5 6L4 9M8 3L10.5 6L8 9" },
  tool_result: { label: "tool result", shape: "pentagon", colour: "#edc948", ink: "#422006", icon: "M6 1.5V7M3.5 4.5L6 7L8.5 4.5M1.5 8.5V10.5H10.5V8.5" },
  return: { label: "return", shape: "hexagon", colour: "#b07aa1", ink: "#ffffff", icon: "M10 2V7H3M5 4.5L2.5 7L5 9.5" },
  aggregate: { label: "aggregate", shape: "funnel", colour: "#2f4b7c", ink: "#ffffff", icon: "M2 2L6 6L10 2M6 6V11" },
  human_intervention: { label: "human", shape: "star", colour: "#ff9da7", ink: "#4c0519", icon: "M4 3.5A2 2 0 1 0 8 3.5A2 2 0 1 0 4 3.5M2 11C2 7.5 10 7.5 10 11" },
  safety_event: { label: "safety", shape: "octagon", colour: "#e15759", ink: "#ffffff", icon: "M6 2V7.5M6 9.5V10" },
};

/** Glyph outlines in a 24 x 24 box. */
export const SHAPE_PATHS: Readonly<Record<GlyphShape, string>> = {
  diamond: "M12 1L23 12L12 23L1 12Z",
  "triangle-up": "M12 1.5L23 21.5H1Z",
  "triangle-down": "M1 2.5H23L12 22.5Z",
  circle: "M1 12A11 11 0 1 0 23 12A11 11 0 1 0 1 12Z",
  square: "M2 2H22V22H2Z",
  pentagon: "M12 1L23 9.2L18.8 22.5H5.2L1 9.2Z",
  hexagon: "M6.5 2H17.5L23 12L17.5 22H6.5L1 12Z",
  funnel: "M1 2H23L16.5 22H7.5Z",
  star: "M12 0.8L15 8.2L23 8.6L16.8 13.8L18.9 21.8L12 17.4L5.1 21.8L7.2 13.8L1 8.6L9 8.2Z",
  octagon: "M7.4 1H16.6L23 7.4V16.6L16.6 23H7.4L1 16.6V7.4Z",
};

/** Where the 12 x 12 icon sits on each glyph (top-left corner), so it looks centred in the shape's body. */
export const ICON_OFFSET: Readonly<Record<GlyphShape, readonly [number, number]>> = {
  diamond: [6, 6],
  "triangle-up": [6, 9],
  "triangle-down": [6, 3.5],
  circle: [6, 6],
  square: [6, 6],
  pentagon: [6, 7],
  hexagon: [6, 6],
  funnel: [6, 4],
  star: [6, 7],
  octagon: [6, 6],
};

export interface EdgeVisual {
  label: string;
  colour: string;
  /** SVG stroke-dasharray, or null for a solid line. */
  dash: string | null;
  width: number;
}

export const EDGE_VISUALS: Readonly<Record<EdgeType, EdgeVisual>> = {
  temporal: { label: "temporal", colour: "#94a3b8", dash: "2 4", width: 1 },
  causal: { label: "causal", colour: "#475569", dash: null, width: 1.5 },
  spawn: { label: "spawn", colour: "#59a14f", dash: "6 3", width: 1.75 },
  message: { label: "message", colour: "#0891b2", dash: null, width: 1.75 },
  tool_dependency: { label: "tool dependency", colour: "#e8700c", dash: "4 3", width: 1.5 },
  return: { label: "return", colour: "#a0588f", dash: null, width: 1.5 },
  aggregate: { label: "aggregate", colour: "#2f4b7c", dash: "10 3 2 3", width: 1.75 },
  safety_flow: { label: "safety flow", colour: "#d62728", dash: "2 2", width: 1.75 },
};

/** Edge kinds hidden until the user asks for them: temporal edges only restate lane order. */
export const DEFAULT_HIDDEN_EDGES: readonly EdgeType[] = ["temporal"];

/** Bit of each edge kind in an edge-kind mask (its index in EDGE_TYPES). */
export function edgeBit(kind: EdgeType): number {
  return 1 << EDGE_TYPES.indexOf(kind);
}

/** Mask with every edge kind visible except the default-hidden ones. */
export const DEFAULT_EDGE_MASK: number = EDGE_TYPES.reduce((mask, kind) => (DEFAULT_HIDDEN_EDGES.includes(kind) ? mask : mask | edgeBit(kind)), 0);
