/**
 * The graph model the layout worker holds: columns assembled from the API's
 * pages, the edge index, one layout per spacing, and the credit column.
 * Pure (no DOM, no worker API), so it is tested directly; the worker is a
 * thin message shell around it.
 */
import { ROLE } from "../metrics/roles";
import { buildEdgeIndex, lineage, type EdgeIndex } from "./edges";
import { computeLayout, nodeY, type Layout, type Spacing } from "./layout";
import { overviewGrid, type OverviewGrid } from "./overview";
import type { CreditSummary, EdgeRef, EventBrief, FindResult, LayoutSummary } from "./protocol";
import { computeScene, createSceneScratch, type SceneScratch } from "./scene";
import { DEFAULT_SCENE_OPTIONS, type Scene, type SceneOptions, type SceneQuery, type SceneSource } from "./scene-types";
import type { EdgeColumns, GraphCreditPage, GraphEventsPage, GraphMeta } from "./wire";
import { creditExtent } from "./credit-colour";
import { rTotalBreakdown } from "../rewards/breakdown";

/** Events the overview strip marks in red: error sources and tainted events. */
const OVERVIEW_MARKS = ROLE.errorSource | ROLE.tainted;

export class GraphEngine {
  readonly meta: GraphMeta;
  readonly n: number;
  private readonly ids: string[];
  private readonly labels: string[];
  private readonly t: Float64Array;
  private readonly tEnd: Float64Array;
  private readonly type: Uint8Array;
  private readonly lane: Int32Array;
  private readonly roles: Uint16Array;
  private readonly pageEdges: (EdgeColumns | undefined)[];
  private pagesLoaded = 0;
  private edgeIndex: EdgeIndex | null = null;
  private readonly layouts = new Map<Spacing, Layout>();
  private credit: Float64Array | null = null;
  private idIndex: Map<string, number> | null = null;
  private readonly scratch: SceneScratch;

  constructor(meta: GraphMeta) {
    this.meta = meta;
    this.n = meta.events;
    this.ids = new Array<string>(this.n);
    this.labels = new Array<string>(this.n);
    this.t = new Float64Array(this.n);
    this.tEnd = new Float64Array(this.n).fill(NaN);
    this.type = new Uint8Array(this.n);
    this.lane = new Int32Array(this.n);
    this.roles = new Uint16Array(this.n);
    this.pageEdges = new Array<EdgeColumns | undefined>(meta.pages);
    this.scratch = createSceneScratch(this.n);
  }

  /** Copies one page of columns in; pages may arrive in any order. */
  addPage(page: GraphEventsPage): void {
    const k = Math.floor(page.from / this.meta.page_size);
    if (this.pageEdges[k] !== undefined) return;
    for (let i = 0; i < page.count; i++) {
      const s = page.from + i;
      this.ids[s] = page.id[i]!;
      this.labels[s] = page.label[i]!;
      this.t[s] = page.t[i]!;
      this.tEnd[s] = page.t_end[i] ?? NaN;
      this.type[s] = page.type[i]!;
      this.lane[s] = page.lane[i]!;
      this.roles[s] = page.roles[i]!;
    }
    this.pageEdges[k] = page.edges;
    this.pagesLoaded++;
  }

  get complete(): boolean {
    return this.pagesLoaded === this.meta.pages;
  }

  private edges(): EdgeIndex {
    if (this.edgeIndex) return this.edgeIndex;
    if (!this.complete) throw new Error("the graph is not loaded yet");
    const total = this.pageEdges.reduce((sum, p) => sum + (p?.src.length ?? 0), 0);
    const src = new Int32Array(total);
    const dst = new Int32Array(total);
    const kind = new Uint8Array(total);
    let m = 0;
    for (const page of this.pageEdges) {
      for (let i = 0; i < page!.src.length; i++, m++) {
        src[m] = page!.src[i]!;
        dst[m] = page!.dst[i]!;
        kind[m] = page!.type[i]!;
      }
    }
    this.edgeIndex = buildEdgeIndex(this.n, src, dst, kind);
    return this.edgeIndex;
  }

  private layoutFor(spacing: Spacing): Layout {
    const effective = this.meta.timed ? spacing : "order";
    let layout = this.layouts.get(effective);
    if (!layout) {
      layout = computeLayout({ t: this.t, tEnd: this.tEnd, lane: this.lane, laneCount: this.meta.lanes.length, spacing: effective });
      this.layouts.set(effective, layout);
    }
    return layout;
  }

  /** Lays the graph out (cached per spacing) and bins the overview. */
  layout(spacing: Spacing): { layout: LayoutSummary; overview: OverviewGrid } {
    this.edges();
    const l = this.layoutFor(spacing);
    return {
      layout: { spacing: l.spacing, width: l.width, height: l.height, scale: l.scale, origin: l.origin, laneTop: Array.from(l.laneTop) },
      overview: overviewGrid(l, this.roles, OVERVIEW_MARKS),
    };
  }

  scene(spacing: Spacing, query: SceneQuery, options: SceneOptions = DEFAULT_SCENE_OPTIONS): Scene {
    const source: SceneSource = {
      layout: this.layoutFor(spacing),
      edges: this.edges(),
      ids: this.ids,
      labels: this.labels,
      type: this.type,
      roles: this.roles,
      tEnd: this.tEnd,
      credit: this.credit,
    };
    return computeScene(source, query, this.scratch, options);
  }

  /** Loads credit columns (all pages of one query), or clears them with null. */
  setCredit(pages: readonly GraphCreditPage[] | null): CreditSummary | null {
    if (!pages || pages.length === 0) {
      this.credit = null;
      return null;
    }
    const credit = new Float64Array(this.n).fill(NaN);
    for (const page of pages) for (let i = 0; i < page.count; i++) credit[page.from + i] = page.total[i]!;
    this.credit = credit;
    const first = pages[0]!;
    return { extent: creditExtent(credit.filter((v) => !Number.isNaN(v))), method: first.method, preset: first.preset, normalize: first.normalize, r_total: first.r_total, r_total_parts: rTotalBreakdown(first.families, first.weights) };
  }

  find(text: string, limit = 12): FindResult {
    const query = text.trim();
    if (!this.idIndex) {
      this.idIndex = new Map();
      for (let s = 0; s < this.n; s++) if (!this.idIndex.has(this.ids[s]!)) this.idIndex.set(this.ids[s]!, s);
    }
    const exact = this.idIndex.get(query) ?? null;
    const matches: FindResult["matches"] = [];
    const needle = query.toLowerCase();
    if (needle !== "") {
      for (let s = 0; s < this.n && matches.length < limit; s++) {
        // by id, by label (type, tool, from/to), or by the agent whose lane it is on
        const agent = this.meta.lanes[this.lane[s]!]?.agent.toLowerCase() ?? "";
        if (this.ids[s]!.toLowerCase().includes(needle) || this.labels[s]!.toLowerCase().includes(needle) || agent.includes(needle)) {
          matches.push({ seq: s, id: this.ids[s]!, label: this.labels[s]! });
        }
      }
    }
    return { exact, matches };
  }

  describe(seq: number, spacing: Spacing): EventBrief {
    const edges = this.edges();
    const layout = this.layoutFor(spacing);
    const ref = (other: number, e: number): EdgeRef => ({ seq: other, id: this.ids[other]!, label: this.labels[other]!, kind: edges.kind[e]! });
    const incoming: EdgeRef[] = [];
    for (let p = edges.intoStart[seq]!; p < edges.intoStart[seq + 1]!; p++) incoming.push(ref(edges.src[edges.into[p]!]!, edges.into[p]!));
    const outgoing: EdgeRef[] = [];
    for (let p = edges.outStart[seq]!; p < edges.outStart[seq + 1]!; p++) outgoing.push(ref(edges.dst[edges.out[p]!]!, edges.out[p]!));
    const credit = this.credit ? this.credit[seq]! : NaN;
    return {
      seq,
      id: this.ids[seq]!,
      label: this.labels[seq]!,
      type: this.type[seq]!,
      lane: this.lane[seq]!,
      roles: this.roles[seq]!,
      credit: Number.isNaN(credit) ? null : credit,
      x: layout.x[seq]!,
      y: nodeY(layout, seq),
      w: layout.w[seq]!,
      incoming,
      outgoing,
    };
  }

  lineage(seq: number): Uint8Array {
    return lineage(this.edges(), seq);
  }
}
