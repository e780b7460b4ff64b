"use client";

import { useCallback, useState } from "react";
import { DecisiveErrorPanel } from "@/components/annotate/decisive-error";
import { EventList } from "@/components/annotate/event-list";
import { LabelingProvider, selectUnitEventId, useLabeling, useLabelingStore } from "@/components/annotate/store";
import { UnitContextView } from "@/components/annotate/unit-context";
import { useLabelKeys } from "@/components/annotate/use-label-keys";
import { useTracePages } from "@/components/annotate/use-trace-pages";

interface Props {
  traceId: string;
  events: number;
  me: string | null;
  blind: boolean;
  onMine: (named: boolean) => void;
}

/**
 * A queue item that asks for the trace's decisive error: the trace's events
 * (← → or a click select one, its content beside), and the label page's
 * decisive-error panel (`w` names the selected event, or the guided
 * questions). What it saves is the caller's decisive error of the trace;
 * the queue's submit then completes the item.
 */
export function DecisiveUnit({ traceId, events, ...rest }: Props) {
  return (
    <LabelingProvider key={traceId} init={{ traceId, total: events, startIndex: 0 }}>
      <DecisiveUnitView {...rest} />
    </LabelingProvider>
  );
}

function DecisiveUnitView({ me, blind, onMine }: Omit<Props, "traceId" | "events">) {
  const store = useLabelingStore();
  const traceId = useLabeling((s) => s.traceId);
  const eventId = useLabeling(selectUnitEventId);
  const [error, setError] = useState<string | null>(null);
  const onError = useCallback((m: string) => setError(m), []);
  useTracePages(store, "uniform", onError);

  // ← → move between events (the queue view's own keys do the rest)
  useLabelKeys((action) => {
    if (action.kind === "move" && !document.querySelector("[role=dialog]")) store.getState().move(action.by);
  });

  return (
    <div className="space-y-3" data-testid="queue-decisive">
      {error && <p className="text-sm text-rose-700">{error}</p>}
      <DecisiveErrorPanel disabled={me === null} me={me} blind={blind} onMine={onMine} />
      <div className="grid gap-3 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <EventList />
        <div className="rounded border border-slate-200 bg-white p-3">
          <UnitContextView traceId={traceId} eventId={eventId} />
        </div>
      </div>
    </div>
  );
}
