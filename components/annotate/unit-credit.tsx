"use client";

import { useEffect, useState } from "react";
import { call } from "@/lib/api/client";
import { graphCreditPart } from "@/lib/api/contracts/traces";
import { formatValue } from "@/lib/format";
import { useLabeling } from "./store";
import { labelCreditQuery } from "./use-trace-pages";

/** The selected event's credit: the total (from the list) and by family (one small page from the graph API), refreshed after each save. */
export function UnitCredit({ traceId, seq, preset }: { traceId: string; seq: number; preset: string }) {
  const total = useLabeling((s) => s.credit[seq] ?? null);
  const version = useLabeling((s) => s.creditRound);
  const judges = useLabeling((s) => s.judges);
  const [byFamily, setByFamily] = useState<{ key: string; values: [string, number][] } | null>(null);
  const key = `${seq}:${version}:${preset}`;
  useEffect(() => {
    // only once the trace's credit has arrived: before that the graph API is still analysing the whole trace
    if (version === 0) return;
    let cancelled = false;
    void call(graphCreditPart, { params: { id: traceId }, query: { part: "credit", families: "1", ...labelCreditQuery(preset, judges), from: seq, limit: 1 } }).then((page) => {
      if (cancelled || !page.ok || !page.data.by_family) return;
      setByFamily({ key, values: Object.entries(page.data.by_family).map(([f, v]) => [f, v[0] ?? 0] as [string, number]).filter(([, v]) => v !== 0) });
    });
    return () => {
      cancelled = true;
    };
  }, [traceId, seq, preset, key, version, judges]);
  return (
    <p className="text-xs text-slate-600" data-testid="unit-credit" data-value={total ?? ""}>
      Credit (CCP, {preset}{judges ? ", with judges" : ""}): <strong className="font-mono">{formatValue(total)}</strong>
      {byFamily?.key === key && byFamily.values.length > 0 && <> = {byFamily.values.map(([f, v]) => `${f} ${formatValue(v)}`).join(" + ")} (before weights)</>}
    </p>
  );
}
