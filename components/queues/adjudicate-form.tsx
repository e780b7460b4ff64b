"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { labelOptions } from "@/lib/annotate/options";
import { call, describeFailure } from "@/lib/api/client";
import { adjudicate } from "@/lib/api/contracts/queues";
import type { Family } from "@/lib/trace/types";

/** Sets the final value of one unit (admin); the page reloads its numbers afterwards. */
export function AdjudicateForm({ traceId, eventId, family, current }: { traceId: string; eventId: string | null; family: string; current: number | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = async (value: number) => {
    setBusy(true);
    const result = await call(adjudicate, { body: { trace_id: traceId, event_id: eventId, family: family as Family, value } });
    setBusy(false);
    if (!result.ok) return setError(describeFailure(result));
    setError(null);
    router.refresh();
  };
  return (
    <div className="flex items-center gap-1" data-testid={`adjudicate-${eventId ?? "trace"}-${family}`}>
      {/* the same options as labeling: a trace's task_success is fail (0) / success (1) */}
      {labelOptions(family, eventId ? "event" : "trace").map(({ value: v, text }) => (
        <button key={v} type="button" disabled={busy} onClick={() => void set(v)} title={text}
          className={`rounded border px-2 py-0.5 text-xs ${current === v ? "border-blue-600 bg-blue-600 text-white" : "border-slate-300 hover:bg-slate-100"}`}>
          {eventId || family !== "task_success" ? v : text}
        </button>
      ))}
      {error && <span className="text-xs text-rose-700">{error}</span>}
    </div>
  );
}
