"use client";
import { use } from "react";
import { formatCredit } from "@/components/trace-graph/format";
import { useGraphActions, useGraphStore } from "@/components/trace-graph/store/context";
import { creditQueryString } from "@/components/trace-graph/store/fetchers";
import type { GraphState } from "@/components/trace-graph/store/state";

const selectQuery = (s: GraphState) => creditQueryString(s);

/** The event's credit under the toolbar's method and preset, by family for ccp. */
export function EventCreditSection({ seq }: { seq: number }) {
  const actions = useGraphActions();
  useGraphStore(selectQuery); // re-render (and so re-fetch) when the credit query changes
  const credit = use(actions.eventCredit(seq));
  if (!credit.ok) return <p className="text-sm text-red-700">Credit unavailable: {credit.message}</p>;
  const c = credit.data;
  return (
    <section data-testid="inspector-credit">
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
        Credit · {c.method} · {c.preset}
        {c.normalize ? " · normalized" : ""}
      </h3>
      <table className="w-full text-xs">
        <tbody>
          <tr className="font-semibold">
            <td className="py-0.5">total C(v)</td>
            <td className="text-right font-mono tabular-nums">{formatCredit(c.total)}</td>
          </tr>
          {c.byFamily ? (
            Object.entries(c.byFamily).map(([family, value]) => (
              <tr key={family} className={value === 0 ? "text-slate-400" : "text-slate-800"}>
                <td className="py-0.5 font-mono">{family}</td>
                <td className="text-right font-mono tabular-nums">{formatCredit(value)}</td>
              </tr>
            ))
          ) : (
            <tr>
              <td colSpan={2} className="pt-1 text-slate-500">{c.method} gives one value per event, not a split by family.</td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
