import Link from "next/link";
import { LabelWorkbench } from "@/components/annotate/label-workbench";
import { LabelingProvider, type LabelEvent } from "@/components/annotate/store";
import { labelFamilies } from "@/lib/annotate/families";
import { computeCredit } from "@/lib/credit";
import { buildCausalGraph } from "@/lib/graph/causal";
import { isBuiltinPreset } from "@/lib/rewards";
import { requirePageRead } from "@/lib/server/auth/page-access";
import { humanLabels } from "@/lib/server/queries/annotations";
import { loadTrace } from "@/lib/server/queries/load-trace";
import { findTraceRowOrNull } from "@/lib/server/queries/traces";
import { eventSummary } from "@/lib/trace/summary";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ preset?: string | string[]; event?: string | string[] }>;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Keyboard labeling of a trace's events: all events in event order, credit beside them; `?event=<id>` starts at that event. */
export default async function LabelPage({ params, searchParams }: Props) {
  const traceId = decodeURIComponent((await params).id);
  const query = await searchParams;
  const requested = first(query.preset) ?? "uniform";
  const preset = isBuiltinPreset(requested) ? requested : "uniform";
  const startEvent = first(query.event);
  await requirePageRead(`/traces/${encodeURIComponent(traceId)}/label`, (await findTraceRowOrNull(traceId))?.project.name ?? null);
  const trace = await loadTrace(traceId);
  const graph = buildCausalGraph(trace);
  const stops = trace.events.filter((e) => e.type === "orchestrator_decision" && e.decision === "stop");
  const stopAnchors = new Set(stops.length > 0 ? stops.map((e) => e.id) : [trace.events[graph.terminal]!.id]);
  const credit = computeCredit(trace, { labels: (await humanLabels(traceId)).labels });
  const events: LabelEvent[] = Array.from(graph.order, (i, seq) => {
    const e = trace.events[i]!;
    return {
      id: e.id,
      seq,
      t: e.t,
      agent: e.agent,
      type: e.type,
      summary: eventSummary(e),
      families: labelFamilies(e, { terminal: i === graph.terminal, stopAnchor: stopAnchors.has(e.id) }),
    };
  });
  // An unknown or missing event id starts at the first event.
  const startIndex = Math.max(0, startEvent === undefined ? 0 : events.findIndex((e) => e.id === startEvent));
  return (
    <div className="space-y-4">
      <div>
        <Link href={`/traces/${encodeURIComponent(traceId)}`} className="text-sm text-blue-700 hover:underline">← {traceId}</Link>
        <h1 className="mt-1 text-2xl font-semibold">Label rewards</h1>
        <p className="text-sm text-slate-600">
          Keyboard only: <kbd>1</kbd>–<kbd>5</kbd> choose a value, <kbd>Enter</kbd> saves and moves on, <kbd>←</kbd> <kbd>→</kbd> events, <kbd>↑</kbd> <kbd>↓</kbd> families, <kbd>s</kbd>/<kbd>f</kbd> the trace&apos;s success, <kbd>?</kbd> all keys. Credit: CCP, preset {preset}.
        </p>
      </div>
      <LabelingProvider init={{ traceId, events, credit: Object.fromEntries(credit.events.map((e) => [e.id, e.total])), index: startIndex }}>
        <LabelWorkbench preset={preset} />
      </LabelingProvider>
    </div>
  );
}
