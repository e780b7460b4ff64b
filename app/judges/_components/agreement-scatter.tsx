import type { PairedUnit } from "@/lib/judges/agreement";

/** A small scatter of judge value (x) against the people's mean (y), both in [-1, 1], with the diagonal of perfect agreement. */
export function AgreementScatter({ points }: { points: readonly PairedUnit[] }) {
  const size = 80;
  const at = (v: number) => ((v + 1) / 2) * (size - 8) + 4;
  return (
    <svg width={size} height={size} role="img" aria-label={`${points.length} units, judge against people`} className="rounded border border-slate-200 bg-slate-50">
      <line x1={at(-1)} y1={size - at(-1)} x2={at(1)} y2={size - at(1)} stroke="#cbd5e1" />
      {points.map((p, i) => (
        <circle key={i} cx={at(p.judge)} cy={size - at(p.human_mean)} r={2.5} fill="#1d4ed8" fillOpacity={0.6} />
      ))}
    </svg>
  );
}
