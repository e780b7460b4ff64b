"use client";

import { useEffect, useState } from "react";
import type { FamilyValues } from "@/lib/judges/unit-values";
import { call } from "@/lib/api/client";
import { annotationValues } from "@/lib/api/contracts/annotations";
import { formatValue } from "@/lib/format";
import { useLabeling } from "./store";

const USES: Record<FamilyValues["in_credit"], string> = {
  adjudication: "credit uses the adjudication",
  people: "credit uses people's labels",
  judges: "credit uses the judges' value (no person labelled)",
  none: "nothing in credit",
};

/**
 * With "credit with judges" on: per family of the unit, what the judges
 * answered (value and reason) beside people's labels, and which one credit
 * uses, refreshed after each save. Judges' reasons are untrusted model text,
 * rendered as text.
 */
export function UnitValues({ traceId, eventId }: { traceId: string; eventId: string | null }) {
  const judges = useLabeling((s) => s.judges);
  const version = useLabeling((s) => s.creditRound);
  const [state, setState] = useState<{ key: string; families: FamilyValues[] } | null>(null);
  const key = `${eventId ?? ""}:${version}`;
  useEffect(() => {
    if (!judges) return;
    let cancelled = false;
    void call(annotationValues, { params: { id: traceId }, query: eventId === null ? {} : { event: eventId } }).then((result) => {
      if (!cancelled && result.ok) setState({ key, families: result.data.families });
    });
    return () => {
      cancelled = true;
    };
  }, [traceId, eventId, judges, key]);
  if (!judges || state?.key !== key) return null;
  const judged = state.families.filter((f) => f.judges.length > 0);
  return (
    <div className="rounded border border-violet-200 bg-violet-50 p-2 text-xs text-slate-800" data-testid="unit-values">
      {judged.length === 0 ? (
        <p>No judge has a value for this unit.</p>
      ) : (
        <ul className="space-y-1">
          {judged.map((f) => (
            <li key={f.family} data-testid={`judged-${f.family}`} data-in-credit={f.in_credit}>
              <span className="font-medium">{f.family}</span>
              {f.judges.map((j) => (
                <span key={j.judge} className="ml-2" data-testid="judge-answer">
                  judge {j.judge}: <strong className="font-mono">{formatValue(j.value)}</strong>{j.reason ? <> — “{j.reason}”</> : null}
                </span>
              ))}
              <span className="ml-2 text-slate-600">
                · people: {f.people.count === 0 ? "none" : `${f.people.count} (mean ${formatValue(f.people.mean)})`}
                {f.people.adjudicated !== null ? `, adjudicated ${formatValue(f.people.adjudicated)}` : ""} · {USES[f.in_credit]}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
