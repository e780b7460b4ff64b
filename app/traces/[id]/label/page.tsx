import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LabelWorkbench } from "@/components/annotate/label-workbench";
import { LabelingProvider } from "@/components/annotate/store";
import { isBuiltinPreset, resolvePreset } from "@/lib/rewards";
import { labelingViewer } from "@/lib/server/annotate/viewer";
import { requirePageRead } from "@/lib/server/auth/page-access";
import { prisma } from "@/lib/server/db/client";
import { projectRubrics } from "@/lib/server/queries/rubrics";
import { findTraceRowOrNull } from "@/lib/server/queries/traces";
import { runnerNamesFor } from "@/lib/server/replay/runner";
import { decodeSegment } from "@/lib/api/text";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ preset?: string | string[]; event?: string | string[]; judges?: string | string[] }>;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Labeling a trace: the page carries only the trace's size, the rubrics and
 * who labels; events, credit and content come from the API page by page, so
 * a 100,000-event trace opens like a small one. `?event=<id>` starts there.
 */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `Label · ${decodeSegment(id) ?? id}` };
}

export default async function LabelPage({ params, searchParams }: Props) {
  const traceId = decodeSegment((await params).id) ?? "";
  const query = await searchParams;
  const requested = first(query.preset) ?? "uniform";
  const preset = isBuiltinPreset(requested) ? requested : "uniform";
  const row = await findTraceRowOrNull(traceId);
  await requirePageRead(`/traces/${encodeURIComponent(traceId)}/label`, row?.project.name ?? null);
  if (!row) notFound();
  const project = row.project.name;
  const startEvent = first(query.event);
  // an unknown or missing event id starts at the first event
  const start = startEvent ? await prisma().event.findUnique({ where: { traceId_eventId: { traceId: row.id, eventId: startEvent } }, select: { seq: true } }) : null;
  const [{ rubrics }, viewer] = await Promise.all([projectRubrics(project), labelingViewer(project)]);
  const weights = resolvePreset(preset)!.weights;
  // credit with judges' values where no person labelled (SPEC.md section 5); labels themselves stay people's
  const judges = first(query.judges) === "all" ? "all" : "";
  const toggle = new URLSearchParams({ ...(first(query.preset) && { preset }), ...(startEvent && { event: startEvent }), ...(!judges && { judges: "all" }) });
  return (
    <div className="space-y-3">
      <div>
        <Link href={`/traces/${encodeURIComponent(traceId)}`} className="text-sm text-blue-700 hover:underline">← {traceId}</Link>
        <h1 className="mt-1 text-2xl font-semibold">Label rewards</h1>
        <p className="text-sm text-slate-600">
          <kbd>←</kbd> <kbd>→</kbd> units, <kbd>↑</kbd> <kbd>↓</kbd> fields, <kbd>1</kbd>–<kbd>9</kbd> options, <kbd>Enter</kbd> save, <kbd>Ctrl/⌘+Enter</kbd> save and next, <kbd>u</kbd> undo, <kbd>c</kbd> comment, <kbd>?</kbd> all keys; the mouse works too. Credit: CCP, preset {preset}.{" "}
          <Link className="text-blue-700 underline" href={`/rubrics?project=${encodeURIComponent(project)}`}>Rubrics of {project}</Link>{" "}
          <Link
            href={`?${toggle.toString()}`}
            role="switch"
            aria-checked={judges !== ""}
            data-testid="label-judges"
            className="ml-2 inline-block whitespace-nowrap rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100"
            title="Credit with judges' values where no person labelled (your labels stay yours)"
          >
            {judges ? "☑" : "☐"} credit with judges
          </Link>
        </p>
      </div>
      <LabelingProvider key={judges} init={{ traceId, total: row.eventCount, startIndex: start?.seq ?? 0, judges }}>
        <LabelWorkbench preset={preset} weights={weights} rubrics={rubrics} me={viewer.me} cannotLabel={viewer.cannotLabel} runners={runnerNamesFor(project)} />
      </LabelingProvider>
    </div>
  );
}
