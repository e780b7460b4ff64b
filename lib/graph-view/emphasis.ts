/**
 * How one node should look given the overlays, the selection and the hover
 * lineage: a small bit set a node can select from the store as one number
 * (so it re-renders only when its own look changes).
 */
import { ROLE } from "../metrics/roles";
import { LINEAGE_ANCESTOR, LINEAGE_DESCENDANT, LINEAGE_SELF } from "./edges";
import { OVERLAYS, type Overlay } from "./view-state";

export const LOOK = {
  selected: 1 << 0,
  ancestor: 1 << 1,
  descendant: 1 << 2,
  hovered: 1 << 3,
  taint: 1 << 4,
  critical: 1 << 5,
  errorSource: 1 << 6,
  errorDescendant: 1 << 7,
  stop: 1 << 8,
  tail: 1 << 9,
  /** Faded: outside the hovered lineage, or outside every active path overlay. */
  dim: 1 << 10,
  /** Named by the link that opened the view (repeated `sel`, e.g. a heatmap cell's events). */
  highlighted: 1 << 11,
} as const;

/** Bit of each overlay in an overlay mask. */
export function overlayMask(overlays: readonly Overlay[]): number {
  let mask = 0;
  for (const o of overlays) mask |= 1 << OVERLAYS.indexOf(o);
  return mask;
}

export const OVERLAY_BIT: Readonly<Record<Overlay, number>> = Object.fromEntries(OVERLAYS.map((o, i) => [o, 1 << i])) as Record<Overlay, number>;

/** Overlays that trace a path through the graph and fade what is off it. */
const PATH_OVERLAYS = OVERLAY_BIT.taint | OVERLAY_BIT.critical | OVERLAY_BIT.errors;

export interface EmphasisInput {
  overlays: number;
  selected: number | null;
  /** The hovered event and its lineage mask (lib/graph-view/edges), or null. */
  hovered: number | null;
  lineage: Uint8Array | null;
}

/** The look of the event `seq` with metrics role flags `roles`; `highlighted`: the URL names it (never faded by a path overlay). */
export function eventLook(seq: number, roles: number, input: EmphasisInput, highlighted = false): number {
  let look = 0;
  if (seq === input.selected) look |= LOOK.selected;
  if (highlighted) look |= LOOK.highlighted;
  const o = input.overlays;
  if ((o & OVERLAY_BIT.taint) !== 0 && (roles & ROLE.tainted) !== 0) look |= LOOK.taint;
  if ((o & OVERLAY_BIT.critical) !== 0 && (roles & ROLE.critical) !== 0) look |= LOOK.critical;
  if ((o & OVERLAY_BIT.errors) !== 0) {
    if ((roles & ROLE.errorSource) !== 0) look |= LOOK.errorSource;
    if ((roles & ROLE.errorDescendant) !== 0) look |= LOOK.errorDescendant;
  }
  if ((o & OVERLAY_BIT.stop) !== 0) {
    if ((roles & ROLE.stop) !== 0) look |= LOOK.stop;
    if ((roles & ROLE.tail) !== 0) look |= LOOK.tail;
  }
  if (input.hovered !== null && input.lineage) {
    const m = input.lineage[seq] ?? 0;
    if ((m & LINEAGE_SELF) !== 0) look |= LOOK.hovered;
    if ((m & LINEAGE_ANCESTOR) !== 0) look |= LOOK.ancestor;
    if ((m & LINEAGE_DESCENDANT) !== 0) look |= LOOK.descendant;
    if (m === 0) look |= LOOK.dim;
  } else if ((o & PATH_OVERLAYS) !== 0) {
    const onPath = look & (LOOK.taint | LOOK.critical | LOOK.errorSource | LOOK.errorDescendant);
    if (onPath === 0 && (look & (LOOK.selected | LOOK.highlighted)) === 0) look |= LOOK.dim;
  }
  return look;
}

/** The names of the marks in a look, for data attributes and tests ("taint critical"). */
export function lookNames(look: number): string {
  const names: string[] = [];
  for (const [name, bit] of Object.entries(LOOK)) if ((look & bit) !== 0) names.push(name);
  return names.join(" ");
}

export type EdgeEmphasis = "normal" | "strong" | "dim";

const ERROR_LOOKS = LOOK.errorSource | LOOK.errorDescendant;

/**
 * How an edge between two events looks: faded when either end is faded;
 * strong inside a hovered lineage, or when both ends lie on the same
 * overlay path (both tainted, both critical, both in an error's reach).
 */
export function edgeEmphasis(srcLook: number, dstLook: number): EdgeEmphasis {
  if (((srcLook | dstLook) & LOOK.dim) !== 0) return "dim";
  const lineage = LOOK.ancestor | LOOK.descendant | LOOK.hovered;
  if ((srcLook & lineage) !== 0 && (dstLook & lineage) !== 0) return "strong";
  if ((srcLook & dstLook & (LOOK.taint | LOOK.critical)) !== 0) return "strong";
  if ((srcLook & ERROR_LOOKS) !== 0 && (dstLook & ERROR_LOOKS) !== 0) return "strong";
  return "normal";
}
