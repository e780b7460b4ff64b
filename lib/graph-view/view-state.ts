/**
 * The part of the graph view that lives in the URL, so that a copied link
 * reproduces the view: selection, visible edge kinds, overlays, credit
 * method / preset / normalize, spacing and viewport. Parsing is lenient (an
 * invalid value falls back to its default: a link never breaks the page);
 * serialising writes only what differs from the defaults, in a fixed order.
 */
import { z } from "zod";
import type { CreditMethod } from "../credit";
import { EDGE_TYPES } from "../trace/types";
import type { Spacing } from "./layout";
import type { Viewport } from "./viewport";
import { DEFAULT_EDGE_MASK } from "./visual";

export type { Viewport } from "./viewport";

export const OVERLAYS = ["credit", "taint", "critical", "errors", "stop"] as const;
export type Overlay = (typeof OVERLAYS)[number];

/** The credit methods of lib/credit (kept here so client bundles need not import the compute core; a test checks they agree). */
export const CREDIT_METHOD_OPTIONS = ["ccp", "uniform", "terminal", "mc_return", "grpo", "gigpo"] as const satisfies readonly CreditMethod[];

export interface ViewState {
  /** Selected event id. */
  selected: string | null;
  /** Bit i: edges of kind EDGE_TYPES[i] visible. */
  edgeMask: number;
  /** Active overlays, in OVERLAYS order. */
  overlays: readonly Overlay[];
  method: CreditMethod;
  preset: string;
  normalize: boolean;
  /** null: time when the trace has real timing, else event order. */
  spacing: Spacing | null;
  viewport: Viewport | null;
}

export const DEFAULT_VIEW_STATE: ViewState = {
  selected: null,
  edgeMask: DEFAULT_EDGE_MASK,
  overlays: [],
  method: "ccp",
  preset: "uniform",
  normalize: false,
  spacing: null,
  viewport: null,
};

const text = (max: number) => z.string().trim().min(1).max(max);
const finite = z.coerce.number().refine(Number.isFinite);

const fields = {
  sel: text(500),
  edges: z.string().transform((value, ctx) => {
    if (value === "none") return 0;
    let mask = 0;
    for (const kind of value.split(",")) {
      const bit = EDGE_TYPES.indexOf(kind as (typeof EDGE_TYPES)[number]);
      if (bit < 0) {
        ctx.addIssue({ code: "custom", message: `unknown edge kind "${kind}"` });
        return z.NEVER;
      }
      mask |= 1 << bit;
    }
    return mask;
  }),
  ov: z.string().transform((value) => OVERLAYS.filter((o) => value.split(",").includes(o))),
  method: z.enum(CREDIT_METHOD_OPTIONS),
  preset: text(100),
  norm: z.enum(["0", "1"]).transform((v) => v === "1"),
  x: z.enum(["time", "order"]),
  v: z.string().transform((value, ctx) => {
    const parts = value.split(",").map((p) => finite.safeParse(p));
    if (parts.length !== 3 || parts.some((p) => !p.success) || (parts[2]!.data ?? 0) <= 0) {
      ctx.addIssue({ code: "custom", message: "expected x,y,zoom" });
      return z.NEVER;
    }
    return { x: parts[0]!.data!, y: parts[1]!.data!, zoom: parts[2]!.data! };
  }),
};

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

function get(params: Params, key: string): string | undefined {
  if (params instanceof URLSearchParams) return params.get(key) ?? undefined;
  const value = params[key];
  return Array.isArray(value) ? value[0] : value;
}

function field<K extends keyof typeof fields>(params: Params, key: K): z.output<(typeof fields)[K]> | undefined {
  const raw = get(params, key);
  if (raw === undefined || raw === "") return undefined;
  const parsed = fields[key].safeParse(raw);
  return parsed.success ? (parsed.data as z.output<(typeof fields)[K]>) : undefined;
}

/** The view state a URL's query describes; anything missing or invalid takes its default. */
export function parseViewState(params: Params): ViewState {
  const d = DEFAULT_VIEW_STATE;
  return {
    selected: field(params, "sel") ?? d.selected,
    edgeMask: field(params, "edges") ?? d.edgeMask,
    overlays: field(params, "ov") ?? d.overlays,
    method: field(params, "method") ?? d.method,
    preset: field(params, "preset") ?? d.preset,
    normalize: field(params, "norm") ?? d.normalize,
    spacing: field(params, "x") ?? d.spacing,
    viewport: field(params, "v") ?? d.viewport,
  };
}

/** The query string (without "?") for a view state; defaults are left out. */
export function viewStateQuery(state: ViewState): string {
  const d = DEFAULT_VIEW_STATE;
  const q = new URLSearchParams();
  if (state.selected !== null) q.set("sel", state.selected);
  if (state.edgeMask !== d.edgeMask) q.set("edges", state.edgeMask === 0 ? "none" : EDGE_TYPES.filter((_, i) => (state.edgeMask & (1 << i)) !== 0).join(","));
  const overlays = OVERLAYS.filter((o) => state.overlays.includes(o));
  if (overlays.length > 0) q.set("ov", overlays.join(","));
  if (state.method !== d.method) q.set("method", state.method);
  if (state.preset !== d.preset) q.set("preset", state.preset);
  if (state.normalize) q.set("norm", "1");
  if (state.spacing !== null) q.set("x", state.spacing);
  if (state.viewport) q.set("v", [round(state.viewport.x, 1), round(state.viewport.y, 1), Number(state.viewport.zoom.toPrecision(5))].join(","));
  return q.toString();
}

function round(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}
