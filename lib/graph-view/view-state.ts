/**
 * The part of the graph view that lives in the URL, so that a copied link
 * reproduces the view: selection, visible edge kinds, overlays, credit
 * method / preset / normalize, spacing and viewport. Parsing is lenient (an
 * invalid value falls back to its default: a link never breaks the page);
 * serialising writes only what differs from the defaults, in a fixed order.
 *
 * `sel` may repeat (`sel=a&sel=b&sel=c`): the first is the selected event
 * (the inspector), all of them are highlighted in the graph (a heatmap cell
 * opens the graph this way). At most MAX_HIGHLIGHTED ids are read.
 *
 * `w.<family>=<number>` overrides single weights of the preset, exactly as
 * the credit API reads them (lib/rewards parseWeightOverrides); an invalid
 * set of overrides is dropped as a whole.
 */
import { z } from "zod";
import type { CreditMethod } from "../credit";
import { parseWeightOverrides, type WeightOverrides } from "../rewards/presets";
import { EDGE_TYPES, FAMILIES } from "../trace/types";
import type { Spacing } from "./layout";
import type { Viewport } from "./viewport";
import { DEFAULT_EDGE_MASK } from "./visual";

export type { Viewport } from "./viewport";

export const OVERLAYS = ["credit", "taint", "critical", "errors", "stop"] as const;
export type Overlay = (typeof OVERLAYS)[number];

/** The credit methods of lib/credit (kept here so client bundles need not import the compute core; a test checks they agree). */
export const CREDIT_METHOD_OPTIONS = ["ccp", "uniform", "terminal", "mc_return", "grpo", "gigpo"] as const satisfies readonly CreditMethod[];

/** Most event ids a link highlights (repeated `sel`). */
export const MAX_HIGHLIGHTED = 200;

export interface ViewState {
  /** Selected event id (the first `sel`). */
  selected: string | null;
  /** Every `sel` id, the selected one first, at most MAX_HIGHLIGHTED; drawn highlighted. */
  highlighted: readonly string[];
  /** Bit i: edges of kind EDGE_TYPES[i] visible. */
  edgeMask: number;
  /** Active overlays, in OVERLAYS order. */
  overlays: readonly Overlay[];
  method: CreditMethod;
  preset: string;
  normalize: boolean;
  /** `w.<family>` weight overrides of the preset (credit API semantics). */
  weights: WeightOverrides;
  /** `judges=` of the credit API: "" (people only), "all" or judge names (SPEC.md section 5). */
  judges: string;
  /** null: time when the trace has real timing, else event order. */
  spacing: Spacing | null;
  viewport: Viewport | null;
}

export const DEFAULT_VIEW_STATE: ViewState = {
  selected: null,
  highlighted: [],
  edgeMask: DEFAULT_EDGE_MASK,
  overlays: [],
  method: "ccp",
  preset: "uniform",
  normalize: false,
  weights: {},
  judges: "",
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
  judges: z.string().trim().max(1000).regex(/^[^,]+(,[^,]+)*$/),
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

function getAll(params: Params, key: string): string[] {
  if (params instanceof URLSearchParams) return params.getAll(key);
  const value = params[key];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function entries(params: Params): [string, string][] {
  if (params instanceof URLSearchParams) return [...params.entries()];
  return Object.keys(params).flatMap((key) => getAll(params, key).map((v): [string, string] => [key, v]));
}

/** The valid, distinct `sel` ids in order, at most MAX_HIGHLIGHTED. */
function selection(params: Params): string[] {
  const ids: string[] = [];
  for (const raw of getAll(params, "sel")) {
    const parsed = fields.sel.safeParse(raw);
    if (parsed.success && !ids.includes(parsed.data)) ids.push(parsed.data);
    if (ids.length >= MAX_HIGHLIGHTED) break;
  }
  return ids;
}

/** The `w.<family>` overrides, or none when any of them is invalid (as the credit API would reject them). */
function weightOverrides(params: Params): WeightOverrides {
  const parsed = parseWeightOverrides(entries(params));
  return parsed.success ? parsed.data : {};
}

/** The `w.<family>` query parameters for overrides, in FAMILIES order (the inverse of the credit API's parser). */
export function weightParams(weights: WeightOverrides): [string, string][] {
  return FAMILIES.filter((f) => weights[f] !== undefined).map((f) => [`w.${f}`, String(weights[f])]);
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
  const ids = selection(params);
  return {
    selected: ids[0] ?? d.selected,
    highlighted: ids,
    edgeMask: field(params, "edges") ?? d.edgeMask,
    overlays: field(params, "ov") ?? d.overlays,
    method: field(params, "method") ?? d.method,
    preset: field(params, "preset") ?? d.preset,
    normalize: field(params, "norm") ?? d.normalize,
    weights: weightOverrides(params),
    judges: field(params, "judges") ?? d.judges,
    spacing: field(params, "x") ?? d.spacing,
    viewport: field(params, "v") ?? d.viewport,
  };
}

/** The query string (without "?") for a view state; defaults are left out. */
export function viewStateQuery(state: ViewState): string {
  const d = DEFAULT_VIEW_STATE;
  const q = new URLSearchParams();
  if (state.selected !== null) {
    // The selected event first, then the other highlighted ones; highlights without a selection are not written.
    const ids = [state.selected, ...state.highlighted.filter((id) => id !== state.selected)].slice(0, MAX_HIGHLIGHTED);
    for (const id of ids) q.append("sel", id);
  }
  if (state.edgeMask !== d.edgeMask) q.set("edges", state.edgeMask === 0 ? "none" : EDGE_TYPES.filter((_, i) => (state.edgeMask & (1 << i)) !== 0).join(","));
  const overlays = OVERLAYS.filter((o) => state.overlays.includes(o));
  if (overlays.length > 0) q.set("ov", overlays.join(","));
  if (state.method !== d.method) q.set("method", state.method);
  if (state.preset !== d.preset) q.set("preset", state.preset);
  if (state.normalize) q.set("norm", "1");
  for (const [key, value] of weightParams(state.weights)) q.set(key, value);
  if (state.judges !== "") q.set("judges", state.judges);
  if (state.spacing !== null) q.set("x", state.spacing);
  if (state.viewport) q.set("v", [round(state.viewport.x, 1), round(state.viewport.y, 1), Number(state.viewport.zoom.toPrecision(5))].join(","));
  return q.toString();
}

function round(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}
