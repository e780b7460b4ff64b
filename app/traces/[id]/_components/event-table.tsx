import Link from "next/link";
import type { ApiEvent } from "@/lib/server/queries/serialize";
import { datasetStep, stepNumber } from "@/lib/trace/steps";
import { eventSummary } from "@/lib/trace/summary";

interface Props {
  traceId: string;
  events: ApiEvent[];
  total: number;
  from: number;
  nextCursor: string | null;
  limit: number;
}

/**
 * Events in event order, one page at a time; the page range is always stated
 * (from 1). Each event is numbered as a person reads its step everywhere
 * (lib/trace/steps.ts): the dataset's own step when it has one, else its
 * place in event order from 1.
 */
export function EventTable({ traceId, events, total, from, nextCursor, limit }: Props) {
  const base = `/traces/${encodeURIComponent(traceId)}`;
  const prev = Math.max(0, from - limit);
  return (
    <section>
      <h2 className="mb-2 text-lg font-semibold">
        Events <span className="text-sm font-normal text-slate-500">{total > 0 ? `${from + 1}–${from + events.length} of ${total.toLocaleString("en")}` : "none"}</span>
      </h2>
      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <table className="w-full text-sm" data-testid="event-table">
          <thead className="bg-slate-100 text-left text-xs uppercase tracking-wide text-slate-600">
            <tr>
              <th className="px-3 py-2 font-medium">Step</th>
              <th className="px-3 py-2 font-medium">t</th>
              <th className="px-3 py-2 font-medium">Agent</th>
              <th className="px-3 py-2 font-medium">Type</th>
              <th className="px-3 py-2 font-medium">Summary</th>
              <th className="px-3 py-2 font-medium">Tokens</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.seq} className="border-t border-slate-100" data-testid="event-row">
                <td className="px-3 py-1.5 tabular-nums text-slate-500" data-testid="event-number">{stepNumber(e.seq, datasetStep(e.extra))}</td>
                <td className="px-3 py-1.5 tabular-nums">{e.t_end !== null ? `${e.t}–${e.t_end}` : e.t}</td>
                <td className="px-3 py-1.5">{e.agent}{e.role ? <span className="text-slate-500"> ({e.role})</span> : null}</td>
                <td className="px-3 py-1.5 font-mono text-xs">{e.type}</td>
                <td className="px-3 py-1.5">
                  <span className="font-mono text-xs text-slate-500">{e.id}</span> {eventSummary(e)}
                  {e.extra?.mistake === true && (
                    <span className="ml-2 rounded bg-amber-200 px-1.5 py-0.5 text-xs font-semibold text-amber-900" data-testid="ground-truth-mistake" title="the dataset's label: the step that caused the failure">
                      ground truth: mistake
                    </span>
                  )}
                </td>
                <td className="px-3 py-1.5 tabular-nums">{e.tokens ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-2 flex gap-4 text-sm">
        {from > 0 && <Link className="text-blue-700 hover:underline" href={`${base}?cursor=${prev}&limit=${limit}`}>Previous events</Link>}
        {nextCursor && <Link className="text-blue-700 hover:underline" href={`${base}?cursor=${nextCursor}&limit=${limit}`}>Next events</Link>}
      </div>
    </section>
  );
}
