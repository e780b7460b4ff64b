/**
 * A node's marks drawn as stacked rings (box-shadows), innermost first, so
 * several marks (selected, tainted, critical...) stay visible together.
 */
import { LOOK } from "@/lib/graph-view/emphasis";

export const RING_COLOURS: readonly (readonly [number, string, string])[] = [
  // the theme's strongest ink (flips in the dark theme)
  [LOOK.selected, "var(--color-slate-900)", "selected"],
  [LOOK.hovered, "var(--color-slate-900)", "hovered"],
  [LOOK.highlighted, "#0891b2", "named by the link (highlighted)"],
  [LOOK.ancestor, "#2563eb", "led here (ancestor)"],
  [LOOK.descendant, "#d97706", "influenced (descendant)"],
  [LOOK.taint, "#dc2626", "tainted by untrusted input"],
  [LOOK.critical, "#7c3aed", "on the critical path"],
  [LOOK.errorSource, "#b91c1c", "error source"],
  [LOOK.errorDescendant, "#f97316", "downstream of an error"],
  [LOOK.tail, "#64748b", "after the stop (tail)"],
];

/** CSS box-shadow for a look; `width` is one ring's width in the node's own pixels. */
export function ringShadow(look: number, width = 2.5): string | undefined {
  const rings: string[] = [];
  for (const [bit, colour] of RING_COLOURS) if ((look & bit) !== 0) rings.push(`0 0 0 ${(rings.length + 1) * width}px ${colour}`);
  return rings.length > 0 ? rings.join(", ") : undefined;
}
