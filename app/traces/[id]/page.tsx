import type { Metadata } from "next";
import Link from "next/link";
import { E1Badge } from "@/components/e1-badge";
import { eventPageQuery, searchParamsObject } from "@/lib/api/filters";
import { ApiError } from "@/lib/server/errors";
import { requirePageRead } from "@/lib/server/auth/page-access";
import { receivingState } from "@/lib/server/otel/receiving";
import { traceMetrics } from "@/lib/server/queries/metrics";
import { findTraceRow, listEdges, listEvents } from "@/lib/server/queries/traces";
import { searchTerms } from "@/lib/api/search-terms";
import { clockOf, counted } from "@/lib/format";
import { groupHref } from "@/lib/decisions/query";
import { conversationPage } from "@/lib/server/queries/conversation";
import { storedDiagnostics } from "@/lib/server/hacking/store";
import { replayCounts } from "@/lib/server/replay/list";
import { Conversation } from "./_components/conversation";
import { EventTable } from "./_components/event-table";
import { EdgeTable } from "./_components/edge-table";
import { HackingFlags } from "./_components/hacking-flags";
import { MetricsPanel } from "./_components/metrics-panel";
import { ReceivingNotice } from "./_components/receiving-notice";
import { UnmappedSpans } from "./_components/unmapped-spans";
import { Replayed, ReplayOf } from "./_components/replay-of";
import { decodeSegment } from "@/lib/api/text";
import { stored } from "@/lib/server/db/stored";
import { traceSchema } from "@/lib/trace/schema";
import { z } from "zod";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `Trace ${decodeSegment(id) ?? id}` };
}

export default async function TraceDetailPage({ params, searchParams }: Props) {
  const { id } = await params;
  const traceId = decodeSegment(id) ?? "";
  const values = searchParamsObject(await searchParams);
  const query = eventPageQuery.safeParse(values);
  const conversation = conversationQuery(values);
  const page = query.success ? query.data : eventPageQuery.parse({});
  const receiving = await receivingState(traceId);
  const row = await findTraceRow(traceId).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  });
  if (row === null) {
    // an OTLP trace still arriving (its spans go to the default project) has no stored version yet
    await requirePageRead(`/traces/${id}`, receiving === null ? null : "default");
    if (receiving === null) return null; // not reached: requirePageRead answered 404
    return <ReceivingNotice state={receiving} stored={false} />;
  }
  await requirePageRead(`/traces/${id}`, row.project.name);
  const [events, edges, metrics, talk, diagnostics, replays] = await Promise.all([
    listEvents(traceId, { cursor: page.cursor, limit: page.limit, content: false }),
    listEdges(row.id),
    traceMetrics(traceId),
    conversationPage(row.id, row.eventCount, { at: conversation.at, from: conversation.from, limit: 100 }),
    storedDiagnostics(row.id),
    replayCounts(row.id),
  ]);
  const clock = clockOf(row.metadata);
  const warnings = stored(warningsSchema, row.warnings, `trace ${JSON.stringify(row.traceId)}: its warnings`);
  const reported = row.reportedMetrics === null ? {} : stored(reportedMetricsSchema, row.reportedMetrics, `trace ${JSON.stringify(row.traceId)}: its reported metrics`);
  return (
    <div className="space-y-6">
      <div>
        <Link href="/" className="text-sm text-blue-700 hover:underline">← Traces</Link>
        <h1 className="mt-1 break-all font-mono text-xl font-semibold" data-testid="trace-title">{row.traceId}</h1>
        <Link href={`/traces/${encodeURIComponent(row.traceId)}/graph`} className="mt-1 inline-block rounded bg-slate-900 px-3 py-1 text-sm text-white hover:bg-slate-700" data-testid="graph-link">Graph</Link>
        <nav className="mt-1 flex gap-4 text-sm">
          <Link href={`/traces/${encodeURIComponent(row.traceId)}/heatmap`} className="text-blue-700 hover:underline" data-testid="heatmap-link">Credit heatmap</Link>
          <Link href={`/traces/${encodeURIComponent(row.traceId)}/label`} className="text-blue-700 hover:underline">Label rewards</Link>
          <a href={`/api/traces/${encodeURIComponent(row.traceId)}/export?format=jsonl`} className="text-blue-700 hover:underline">Export JSONL</a>
          <a href={`/api/traces/${encodeURIComponent(row.traceId)}/export?format=extended`} className="text-blue-700 hover:underline">Export trace</a>
        </nav>
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
          <Meta label="Task">{row.taskId}</Meta>
          <Meta label="Project">{row.project.name}</Meta>
          <Meta label="System">{row.system ?? "—"}</Meta>
          <Meta label="Topology">{row.topology ?? "—"}</Meta>
          <Meta label="Group">{row.groupId === null ? "—" : <Link href={groupHref(row.groupId)} className="text-blue-700 hover:underline" data-testid="group-link">{row.groupId}</Link>}</Meta>
          <Meta label="Events / edges">{`${row.eventCount.toLocaleString("en")} / ${row.edgeCount.toLocaleString("en")}`}</Meta>
          <Meta label="E1 task success"><E1Badge value={row.e1} /></Meta>
        </dl>
      </div>
      {receiving && <ReceivingNotice state={receiving} stored />}
      <ReplayOf traceId={row.traceId} metadata={row.metadata} />
      <Replayed traceId={row.traceId} counts={replays} />
      <GroundTruth metadata={row.metadata} />
      <UnmappedSpans metadata={row.metadata} />
      {warnings.length > 0 && (
        <details className="rounded border border-amber-300 bg-amber-50 p-3 text-sm">
          <summary className="cursor-pointer font-medium text-amber-900">{counted(warnings.length, "warning")}</summary>
          <ul className="mt-2 space-y-0.5 font-mono text-xs">
            {warnings.map((w, i) => <li key={i}>{w.path}: {w.message}</li>)}
          </ul>
        </details>
      )}
      <HackingFlags traceId={row.traceId} diagnostics={diagnostics} />
      <MetricsPanel metrics={metrics} reported={reported} clock={clock} />
      <Conversation traceId={row.traceId} page={talk} clock={clock} terms={conversation.terms} target={conversation.at} values={values} />
      <EventTable traceId={row.traceId} events={events.events} total={row.eventCount} from={page.cursor ? Number(page.cursor) : 0} nextCursor={events.next_cursor} limit={page.limit} />
      <EdgeTable edges={edges} />
    </div>
  );
}

/** `at=<seq>` opens the conversation page holding that event (a search hit), `conv=<seq>` pages, `hl=` marks terms. */
function conversationQuery(values: Record<string, string>): { at?: number; from?: number; terms: string[] } {
  const seq = (v: string | undefined) => (v !== undefined && /^\d{1,9}$/.test(v) ? Number(v) : undefined);
  return { at: seq(values.at), from: seq(values.conv), terms: values.hl ? searchTerms(values.hl) : [] };
}

function Meta({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="break-all">{children}</dd>
    </div>
  );
}

/** Warnings kept at ingest (traces.warnings), and the metrics the run reported (traces.reported_metrics, the trace's `metrics`). */
const warningsSchema = z.array(z.object({ path: z.string(), message: z.string() }));
const reportedMetricsSchema = traceSchema.shape.metrics.unwrap();
/** Trace metadata with labels the dataset ships (any other metadata has none). */
const groundTruthSchema = z.object({ ground_truth: z.record(z.string(), z.unknown()) });

/** Labels a dataset ships with the run (e.g. Who&When's mistake agent and step), shown as ground truth. */
function GroundTruth({ metadata }: { metadata: unknown }) {
  const parsed = groundTruthSchema.safeParse(metadata);
  if (!parsed.success) return null;
  const truth = parsed.data.ground_truth;
  const shown = ["mistake_agent", "mistake_step", "mistake_event_id", "mistake_reason"].filter((k) => truth[k] !== undefined && truth[k] !== null);
  return (
    <section className="rounded border border-amber-300 bg-amber-50 p-3 text-sm" data-testid="ground-truth">
      <h2 className="font-semibold text-amber-900">Ground truth from the dataset</h2>
      <dl className="mt-1 grid grid-cols-[10rem_1fr] gap-x-3 gap-y-0.5">
        {shown.map((k) => (
          <div key={k} className="contents">
            <dt className="text-amber-900">{k.replace(/_/g, " ")}</dt>
            <dd className="break-words">{String(truth[k] as string | number)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
