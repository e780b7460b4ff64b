import { breakdownLines } from "@/lib/rewards/breakdown";
import { laneLayout, type LaneLayout } from "@/lib/decisions/lanes";
import { EVENT_VISUALS, SHAPE_PATHS } from "@/lib/graph-view/visual";
import type { EventType } from "@/lib/trace/types";
import type { GroupRollout, GroupView } from "@/lib/decisions/view";
import { formatValue } from "@/lib/format";

const GLYPH = 14;

/**
 * The rollouts of a group side by side: one lane per rollout, events as the
 * graph view's glyphs on a shared axis of time (seconds, or steps for step-clock
 * runs) since each rollout's start,
 * durations as bars, and the divergence step ringed in every lane (red where
 * the rollout's step is one the other side never took there). All text is
 * React text (escaped): trace content never becomes markup.
 */
export function GroupLanes({ view }: { view: GroupView }) {
  const layout: LaneLayout = laneLayout(view.rollouts, undefined, undefined, view.clock);
  const marks = new Map((view.divergence?.marks ?? []).map((m) => [m.trace_id, m]));
  const step = view.divergence?.step ?? null;
  return (
    <svg width={layout.width} height={layout.height} viewBox={`0 0 ${layout.width} ${layout.height}`} className="h-auto max-w-full font-sans" role="img" aria-label={`${view.rollouts.length} rollouts of group ${view.group_id} on one ${view.clock === "steps" ? "step" : "time"} axis`} data-testid="group-lanes">
      {layout.ticks.map((t) => (
        <g key={t.label}>
          <line x1={t.x} x2={t.x} y1={0} y2={layout.height - 22} className="stroke-slate-200" />
          <text x={t.x} y={layout.height - 8} fontSize={11} textAnchor="middle" className="fill-slate-500">{t.label}</text>
        </g>
      ))}
      {layout.lanes.map((lane, i) => {
        const rollout: GroupRollout = view.rollouts[i]!;
        const mark = marks.get(lane.trace_id);
        return (
          <g key={lane.trace_id} data-testid="group-lane" data-trace-id={lane.trace_id} data-e1={String(rollout.e1)}>
            <rect x={0} y={lane.y - 16} width={layout.width} height={32} className={rollout.e1 === 1 ? "fill-emerald-50" : rollout.e1 === 0 ? "fill-rose-50" : "fill-slate-50"} />
            <text x={6} y={lane.y - 2} fontSize={11} className="fill-slate-900 font-mono">{/* rollouts of a group share a prefix: the end tells them apart */ lane.trace_id.length > 30 ? `…${lane.trace_id.slice(-29)}` : lane.trace_id}</text>
            <text x={6} y={lane.y + 11} fontSize={10} className="fill-slate-600">
              <title>{`R_total = Σ w_f × R_f\n${breakdownLines(rollout.r_total_parts).join("\n")}`}</title>
              {rollout.e1 === 1 ? "success" : rollout.e1 === 0 ? "failure" : "E1 unknown"} · R {formatValue(rollout.r_total)} · adv {formatValue(rollout.advantage)}
            </text>
            <line x1={layout.left} x2={layout.width - 16} y1={lane.y} y2={lane.y} className="stroke-slate-300" />
            {lane.glyphs.map((g) => {
              const visual = EVENT_VISUALS[g.type as EventType];
              const isMark = step !== null && g.step === step;
              return (
                <g key={g.id} data-event-id={g.id} data-step={g.step} {...(isMark && { "data-divergence": mark?.distinct ? "distinct" : "shared" })}>
                  <title>{`step ${g.step} · ${g.key} · ${formatValue(g.since)} s`}</title>
                  {g.barEnd !== null && <rect x={g.x} y={lane.y - 2} width={Math.max(1, g.barEnd - g.x)} height={4} fill={visual.colour} opacity={0.45} />}
                  <path d={SHAPE_PATHS[visual.shape]} transform={`translate(${g.x - GLYPH / 2} ${lane.y - GLYPH / 2}) scale(${GLYPH / 24})`} fill={visual.colour} stroke="#fff" strokeWidth={1.5} />
                  {isMark && <circle cx={g.x} cy={lane.y} r={GLYPH / 2 + 4} fill="none" strokeWidth={mark?.distinct ? 3 : 1.5} className={mark?.distinct ? "stroke-rose-600" : "stroke-slate-700"} strokeDasharray={mark?.distinct ? undefined : "3 2"} />}
                </g>
              );
            })}
            {step !== null && mark?.event_id === null && (
              <text x={layout.width - 18} y={lane.y + 4} fontSize={10} textAnchor="end" className="fill-rose-700">ended before step {step}</text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** The glyph legend for the types present. */
export function TypeLegend({ types }: { types: readonly string[] }) {
  return (
    <ul className="flex flex-wrap gap-3 text-xs text-slate-600">
      {types.map((t) => {
        const v = EVENT_VISUALS[t as EventType];
        return (
          <li key={t} className="flex items-center gap-1">
            <svg width={12} height={12} viewBox="0 0 24 24" aria-hidden><path d={SHAPE_PATHS[v.shape]} fill={v.colour} /></svg>
            {v.label}
          </li>
        );
      })}
    </ul>
  );
}
