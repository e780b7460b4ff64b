/**
 * The clusters level: lanes thinner than `minBandPx` on screen are grouped
 * into bands, time into buckets `clusterPx` wide on screen, and every
 * non-empty (band, bucket) cell becomes one summary bar with its event
 * count, most frequent type, OR-ed roles and mean credit. Edges between
 * cells of different bands are bundled per pair of cells.
 */
import { EVENT_TYPES } from "../trace/types";
import { LANE_PAD, type Layout } from "./layout";
import { forEachInWindow, nextGeneration, type SceneScratch } from "./scene-window";
import { clusterNodeId, type Scene, type SceneCluster, type SceneEdge, type SceneOptions, type SceneQuery, type SceneSource, type WorldRect } from "./scene-types";

const TYPES = EVENT_TYPES.length;
/** Bucket indices stay below this, so (band, bucket) packs into one safe integer. */
const BUCKET_SPAN = 2 ** 26;

/** Band of each lane: consecutive lanes grouped until a band is `minBandPx` tall on screen. */
export function laneBands(layout: Layout, zoom: number, minBandPx: number): { band: Int32Array; bandStart: number[]; lanesPerBand: number } {
  const lanes = layout.laneTop.length - 1;
  const band = new Int32Array(lanes);
  const bandStart: number[] = [];
  const minWorld = minBandPx / zoom;
  let current = -1;
  let top = 0;
  for (let l = 0; l < lanes; l++) {
    if (current < 0 || layout.laneTop[l]! - top >= minWorld) {
      current++;
      top = layout.laneTop[l]!;
      bandStart.push(l);
    }
    band[l] = current;
  }
  bandStart.push(lanes);
  return { band, bandStart, lanesPerBand: lanes / Math.max(1, bandStart.length - 1) };
}

interface Cell {
  band: number;
  bucket: number;
  count: number;
  types: Int32Array;
  roles: number;
  creditSum: number;
  creditCount: number;
  seqMin: number;
  seqMax: number;
}

export function clusterScene(
  source: SceneSource,
  query: SceneQuery,
  scratch: SceneScratch,
  window: WorldRect,
  laneFrom: number,
  laneTo: number,
  options: SceneOptions,
): Scene {
  const { layout } = source;
  const { band, bandStart, lanesPerBand } = laneBands(layout, query.zoom, options.minBandPx);
  const bucketWidth = options.clusterPx / query.zoom;
  const cellIndex = new Map<number, number>();
  const cells: Cell[] = [];
  const gen = nextGeneration(scratch);
  const members: number[] = [];
  const memberCell: number[] = [];
  let inWindow = 0;
  forEachInWindow(layout, laneFrom, laneTo, window, (s) => {
    inWindow++;
    const b = band[layout.lane[s]!]!;
    const bucket = Math.min(BUCKET_SPAN - 1, Math.floor(layout.x[s]! / bucketWidth));
    const key = b * BUCKET_SPAN + bucket;
    let c = cellIndex.get(key);
    if (c === undefined) {
      c = cells.length;
      cellIndex.set(key, c);
      cells.push({ band: b, bucket, count: 0, types: new Int32Array(TYPES), roles: 0, creditSum: 0, creditCount: 0, seqMin: s, seqMax: s });
    }
    const cell = cells[c]!;
    cell.count++;
    cell.types[source.type[s]!]!++;
    cell.roles |= source.roles[s]!;
    const credit = source.credit ? source.credit[s]! : NaN;
    if (!Number.isNaN(credit)) {
      cell.creditSum += credit;
      cell.creditCount++;
    }
    cell.seqMin = Math.min(cell.seqMin, s);
    cell.seqMax = Math.max(cell.seqMax, s);
    scratch.stamp[s] = gen;
    members.push(s);
    memberCell.push(c);
  });
  const clusters = cells.map((cell) => toCluster(cell, layout, bandStart, bucketWidth, source.credit !== null));
  const { edges, notDrawn } = bundleEdges(source, query, scratch, gen, members, memberCell, cells, options.clusterEdgeBudget);
  return { level: "clusters", window, zoom: query.zoom, events: [], clusters, edges, eventsInWindow: inWindow, edgesNotDrawn: notDrawn, lanesPerBand };
}

function toCluster(cell: Cell, layout: Layout, bandStart: number[], bucketWidth: number, withCredit: boolean): SceneCluster {
  const laneFrom = bandStart[cell.band]!;
  const laneTo = bandStart[cell.band + 1]! - 1;
  const top = layout.laneTop[laneFrom]!;
  const bottom = layout.laneTop[laneTo + 1]!;
  const pad = Math.min(LANE_PAD, (bottom - top) * 0.15);
  let type = 0;
  for (let k = 1; k < TYPES; k++) if (cell.types[k]! > cell.types[type]!) type = k;
  return {
    key: `${cell.band}.${cell.bucket}`,
    x: cell.bucket * bucketWidth,
    y: top + pad,
    w: bucketWidth * 0.92,
    h: bottom - top - 2 * pad,
    count: cell.count,
    type,
    roles: cell.roles,
    credit: withCredit && cell.creditCount > 0 ? cell.creditSum / cell.creditCount : null,
    laneFrom,
    laneTo,
    seqMin: cell.seqMin,
    seqMax: cell.seqMax,
  };
}

/** One edge per ordered pair of cells in different bands, kind = the most frequent kind bundled. */
function bundleEdges(
  source: SceneSource,
  query: SceneQuery,
  scratch: SceneScratch,
  gen: number,
  members: number[],
  memberCell: number[],
  cells: Cell[],
  budget: number,
): { edges: SceneEdge[]; notDrawn: number } {
  const { edges } = source;
  const cellOfSeq = new Map<number, number>();
  for (let i = 0; i < members.length; i++) cellOfSeq.set(members[i]!, memberCell[i]!);
  const bundles = new Map<number, { a: number; b: number; count: number; kinds: Int32Array }>();
  let notDrawn = 0;
  for (let i = 0; i < members.length; i++) {
    const s = members[i]!;
    const a = memberCell[i]!;
    for (let p = edges.outStart[s]!; p < edges.outStart[s + 1]!; p++) {
      const e = edges.out[p]!;
      if ((query.edgeMask & (1 << edges.kind[e]!)) === 0) continue;
      const d = edges.dst[e]!;
      if (scratch.stamp[d] !== gen) {
        notDrawn++;
        continue;
      }
      const b = cellOfSeq.get(d)!;
      if (cells[a]!.band === cells[b]!.band) continue; // shown by the bar itself
      const key = a * 2 ** 21 + b;
      let bundle = bundles.get(key);
      if (!bundle) {
        bundle = { a, b, count: 0, kinds: new Int32Array(32) };
        bundles.set(key, bundle);
      }
      bundle.count++;
      bundle.kinds[edges.kind[e]!]!++;
    }
  }
  const sorted = [...bundles.values()].sort((x, y) => y.count - x.count);
  for (let i = budget; i < sorted.length; i++) notDrawn += sorted[i]!.count;
  const drawn = sorted.slice(0, budget).map((bundle): SceneEdge => {
    let kind = 0;
    for (let k = 1; k < bundle.kinds.length; k++) if (bundle.kinds[k]! > bundle.kinds[kind]!) kind = k;
    const a = cells[bundle.a]!;
    const b = cells[bundle.b]!;
    return {
      key: `b${a.band}.${a.bucket}>${b.band}.${b.bucket}`,
      source: clusterNodeId(`${a.band}.${a.bucket}`),
      target: clusterNodeId(`${b.band}.${b.bucket}`),
      kind,
      count: bundle.count,
      src: -1,
      dst: -1,
    };
  });
  return { edges: drawn, notDrawn };
}
