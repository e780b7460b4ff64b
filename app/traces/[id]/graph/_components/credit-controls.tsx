"use client";
import { useGraphActions, useGraphStore } from "@/components/trace-graph/store/context";
import type { GraphState } from "@/components/trace-graph/store/state";
import { formatCredit } from "@/components/trace-graph/format";
import { RTotal } from "@/components/r-total";
import { CREDIT_METHOD_OPTIONS } from "@/lib/graph-view/view-state";
import { NO_CREDIT_COLOUR } from "@/lib/graph-view/credit-colour";
import { interpolateRdBu } from "d3";

const selectMethod = (s: GraphState) => s.method;
const selectPreset = (s: GraphState) => s.preset;
const selectNormalize = (s: GraphState) => s.normalize;
const selectPresets = (s: GraphState) => s.presets;
const selectCredit = (s: GraphState) => s.credit;
const selectJudges = (s: GraphState) => s.judges;

const GRADIENT = `linear-gradient(to right, ${[0, 0.25, 0.5, 0.75, 1].map((p) => interpolateRdBu(p)).join(", ")})`;

/** Method, preset and normalize of the credit overlay, and its colour scale. */
export function CreditControls() {
  const method = useGraphStore(selectMethod);
  const preset = useGraphStore(selectPreset);
  const normalize = useGraphStore(selectNormalize);
  const presets = useGraphStore(selectPresets);
  const credit = useGraphStore(selectCredit);
  const judges = useGraphStore(selectJudges);
  const actions = useGraphActions();
  const extent = credit.summary?.extent ?? 0;
  return (
    <div className="flex flex-wrap items-center gap-2 rounded border border-slate-300 bg-white px-2 py-1 text-sm" data-testid="credit-controls">
      <label className="flex items-center gap-1">
        method
        <select value={method} onChange={(e) => actions.setCreditQuery({ method: e.target.value as GraphState["method"] })} data-testid="credit-method" className="rounded border border-slate-300 px-1">
          {CREDIT_METHOD_OPTIONS.map((m) => (
            <option key={m} value={m}>{m}</option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1">
        preset
        <select value={preset} onChange={(e) => actions.setCreditQuery({ preset: e.target.value })} data-testid="credit-preset" className="rounded border border-slate-300 px-1">
          {presets.includes(preset) ? null : <option value={preset}>{preset}</option>}
          {presets.map((p) => (
            <option key={p} value={p}>{p}</option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1" title="scale each family's credits to sum to its trace value R_f (ccp only)">
        <input type="checkbox" checked={normalize} onChange={(e) => actions.setCreditQuery({ normalize: e.target.checked })} data-testid="credit-normalize" />
        normalize
      </label>
      <label className="flex items-center gap-1" title="let judges' values fill units and families no person labelled (humans and adjudications always win)">
        <input type="checkbox" checked={judges !== ""} onChange={(e) => actions.setCreditQuery({ judges: e.target.checked ? "all" : "" })} data-testid="credit-judges" />
        with judges
      </label>
      <span className="flex items-center gap-1 text-xs text-slate-600" data-testid="credit-status" data-status={credit.status}>
        {credit.status === "loading" ? "computing…" : null}
        {credit.status === "error" ? <span className="text-red-700">{credit.error}</span> : null}
        {credit.status === "ready" ? (
          <>
            <span className="tabular-nums">{formatCredit(-extent)}</span>
            <span className="inline-block h-3 w-20 rounded-sm" style={{ background: GRADIENT }} aria-label="credit colour scale" />
            <span className="tabular-nums">{formatCredit(extent)}</span>
            <span className="inline-block h-3 w-3 rounded-sm" style={{ background: NO_CREDIT_COLOUR }} title="no credit" />
            <RTotal value={credit.summary?.r_total} parts={credit.summary?.r_total_parts} format={formatCredit} />
          </>
        ) : null}
      </span>
    </div>
  );
}
