"use client";

import { useCallback, useState } from "react";
import { optionForKey } from "@/lib/annotate/options";
import type { Rubric } from "@/lib/rubrics";
import { DecisiveErrorPanel } from "./decisive-error";
import { EventList } from "./event-list";
import { LabelHelp } from "./label-help";
import { LabelFields } from "./label-fields";
import type { LabelUser } from "./pending";
import { fieldsOf, labelKey, selectUnitEventId, useLabeling, useLabelingStore, type LabelingState } from "./store";
import { UnitContextView, useUnitContext } from "./unit-context";
import { ChangeStep } from "../replay/change-step";
import { useLabelSaver } from "./use-label-saver";
import { useTracePages } from "./use-trace-pages";
import { UnitCredit } from "./unit-credit";
import { UnitValues } from "./unit-values";
import { useLabelKeys } from "./use-label-keys";
import { counted } from "@/lib/format";

interface Props {
  preset: string;
  weights: Record<string, number>;
  rubrics: Record<string, Rubric>;
  /** who labels on this page; null: may read but not label */
  me: LabelUser | null;
  cannotLabel: string | null;
  /** runners the server's operator registered for the project ("Change this step" may name one) */
  runners?: string[];
}

/** Labeling one trace: the units on the left, what is graded and its fields on the right; keyboard (lib/annotate/keymap.ts) and mouse alike. */
export function LabelWorkbench({ preset, weights, rubrics, me, cannotLabel, runners = [] }: Props) {
  const store = useLabelingStore();
  const [loadError, setLoadError] = useState<string | null>(null);
  const onError = useCallback((m: string) => setLoadError(m), []);
  const [skipped, setSkipped] = useState<string | null>(null);
  useTracePages(store, preset, onError);
  const saver = useLabelSaver(preset, me);
  const { save, retryFailed, undo } = saver;
  const overlay = useLabeling((s) => s.overlay);

  const commit = useCallback(async (s: LabelingState) => {
    const eventId = selectUnitEventId(s);
    if (s.index >= 0 && eventId === null) return;
    const writes = Object.entries(s.drafts).map(([family, value]) => ({ event_id: eventId, family, value, comment: s.comments[family]?.trim() || null }));
    // a comment alone is saved with the label it belongs to
    for (const [family, text] of Object.entries(s.comments)) {
      const saved = s.labels[labelKey(eventId, family)];
      if (s.drafts[family] === undefined && saved && text.trim() !== (saved.comment ?? "")) writes.push({ event_id: eventId, family, value: saved.value, comment: text.trim() || null });
    }
    store.setState({ drafts: {} });
    await Promise.all(writes.map((w) => save(w)));
  }, [store, save]);

  // the help overlay is this screen's own dialog: while it is open, keys go to it
  useLabelKeys((action, e) => {
    const s = store.getState();
    // an open overlay takes no shortcut but closing it
    if (s.overlay) {
      if (action.kind === "escape" || action.kind === "help") {
        e.preventDefault();
        s.setOverlay(null);
      }
      return;
    }
    e.preventDefault();
    const fields = fieldsOf(s);
    const field = fields[s.field];
    switch (action.kind) {
      case "option": {
        const option = field && optionForKey(field.family, field.unit, action.key);
        if (option && me) s.choose(field.family, option.value);
        break;
      }
      case "task":
        if (me) void save({ event_id: null, family: "task_success", value: action.value });
        break;
      case "move":
        s.move(action.by);
        break;
      case "field":
        s.moveField(action.by);
        break;
      case "commit":
        void commit(s);
        break;
      case "complete":
        void commit(s);
        s.move(1);
        break;
      case "skip":
        setSkipped(s.index < 0 ? "the trace" : `event ${s.index + 1}`);
        s.move(1);
        break;
      case "comment":
        if (field && me) s.setCommenting(field.family);
        break;
      case "undo":
        void undo().then((w) => {
          if (!w) return;
          const rows = store.getState().rows;
          store.getState().setIndex(w.event_id === null ? -1 : rows.findIndex((r) => r?.id === w.event_id));
        });
        break;
      case "retry":
        void retryFailed();
        break;
      case "decisive":
        // the decisive-error panel handles `w` itself
        break;
      case "help":
        s.setOverlay(s.overlay === "help" ? null : "help");
        break;
      case "escape":
        if (s.commenting) s.setCommenting(null);
        else store.setState({ drafts: {} });
        break;
    }
  }, { inDialogs: () => store.getState().overlay !== null });

  return (
    <div className="space-y-3">
      <StatusBar saver={saver} cannotLabel={cannotLabel} />
      {skipped && <p className="text-sm text-slate-600" role="status" data-testid="label-skipped">Skipped {skipped} without a label (nothing saved).</p>}
      {loadError && <p className="text-sm text-rose-700" data-testid="load-error">{loadError}</p>}
      {overlay === "help" && (
        <div role="dialog" aria-label="Keyboard help" className="fixed inset-0 z-40 flex items-center justify-center bg-black/30" onClick={() => store.getState().setOverlay(null)}>
          <div onClick={(e) => e.stopPropagation()}>
            <LabelHelp place="label" onClose={() => store.getState().setOverlay(null)} />
          </div>
        </div>
      )}
      <DecisiveErrorPanel disabled={me === null} me={me?.name ?? null} />
      <div className="grid gap-3 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <EventList />
        <UnitPanel preset={preset} weights={weights} rubrics={rubrics} runners={runners} disabled={me === null} onCommit={() => void commit(store.getState())} />
      </div>
    </div>
  );
}

function UnitPanel({ preset, weights, rubrics, runners, disabled, onCommit }: { preset: string; weights: Record<string, number>; rubrics: Record<string, Rubric>; runners: string[]; disabled: boolean; onCommit: () => void }) {
  const store = useLabelingStore();
  const traceId = useLabeling((s) => s.traceId);
  const index = useLabeling((s) => s.index);
  const eventId = useLabeling(selectUnitEventId);
  const rowsReady = useLabeling((s) => s.index < 0 || s.rows[s.index] !== undefined);
  const field = useLabeling((s) => s.field);
  const drafts = useLabeling((s) => s.drafts);
  const comments = useLabeling((s) => s.comments);
  const commenting = useLabeling((s) => s.commenting);
  const labels = useLabeling((s) => s.labels);
  const fields = useLabeling((s) => s.rows[s.index]?.families.join(",") ?? "");
  const fieldList = fieldsOf({ index, rows: store.getState().rows });
  const saved = Object.fromEntries(fieldList.map((f) => [f.family, labels[labelKey(eventId, f.family)]]));
  if (!rowsReady) return <p className="text-sm text-slate-500">Loading the event…</p>;
  return (
    <div className="space-y-3 rounded border border-slate-200 bg-white p-3" data-testid="unit-panel" data-fields={fields}>
      <UnitContextView traceId={traceId} eventId={index < 0 ? null : eventId} />
      {index >= 0 && eventId && <UnitCredit traceId={traceId} seq={index} preset={preset} />}
      <UnitValues traceId={traceId} eventId={index < 0 ? null : eventId} />
      {index >= 0 && eventId && <ChangeStepFor traceId={traceId} eventId={eventId} runners={runners} />}
      <LabelFields
        fields={fieldList}
        focused={field}
        drafts={drafts}
        saved={saved}
        comments={comments}
        commenting={commenting}
        rubrics={rubrics}
        weights={weights}
        disabled={disabled}
        onChoose={(_, value) => store.getState().choose(fieldList[_]!.family, value)}
        onFocus={(i) => store.getState().setField(i)}
        onComment={(family, text) => store.getState().setComment(family, text)}
        onCloseComment={() => store.getState().setCommenting(null)}
      />
      <div className="flex flex-wrap gap-2 text-sm">
        <button type="button" disabled={disabled} onClick={onCommit} className="rounded bg-slate-900 px-2 py-1 text-white hover:bg-slate-700 disabled:opacity-50" data-testid="save-unit">Save (Enter)</button>
        <button type="button" disabled={disabled} onClick={() => { onCommit(); store.getState().move(1); }} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100">Save and next (Ctrl/⌘+Enter)</button>
        <button type="button" disabled={disabled} onClick={() => fieldList[field] && store.getState().setCommenting(fieldList[field].family)} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100">Comment (c)</button>
      </div>
    </div>
  );
}

/** "Change this step" for a step that came from a recorded model call (the call is known from the step's content, already loaded). */
function ChangeStepFor({ traceId, eventId, runners }: { traceId: string; eventId: string; runners: string[] }) {
  const { context } = useUnitContext(traceId, eventId);
  if (context?.unit !== "event" || !context.call) return null;
  // creating forks needs ingest rights, checked by the API (its answer is shown)
  return <ChangeStep key={context.call.id} traceId={traceId} call={context.call} runners={runners} disabled={false} />;
}

function StatusBar({ saver, cannotLabel }: { saver: ReturnType<typeof useLabelSaver>; cannotLabel: string | null }) {
  const store = useLabelingStore();
  const failed = useLabeling((s) => Object.values(s.labels).filter((l) => l.status === "failed").length);
  const labelled = useLabeling((s) => new Set(Object.keys(s.labels).filter((k) => s.labels[k]!.status !== "failed").map((k) => k.split("|")[0])).size);
  const total = useLabeling((s) => s.total);
  const stale = useLabeling((s) => s.creditStale);
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="label-status" data-credit-stale={stale}>
      <span data-testid="label-progress">units labelled: <strong>{labelled}</strong> of {(total + 1).toLocaleString("en")} (the trace and its events)</span>
      {cannotLabel && <span className="rounded bg-amber-100 px-2 py-0.5 text-amber-900" data-testid="cannot-label">{cannotLabel}</span>}
      {failed > 0 && (
        <span className="rounded bg-rose-100 px-2 py-0.5 text-rose-800" data-testid="failed-labels">
          {counted(failed, "label")} not saved — <button type="button" className="underline" onClick={() => void saver.retryFailed()}>retry (r)</button>
        </span>
      )}
      {saver.others.map((o) => (
        <span key={o.name} className="rounded bg-amber-100 px-2 py-0.5 text-amber-900" data-testid="others-pending">
          {counted(o.count, "label")} pending from {o.name} (not saved: only {o.name} can save them) —{" "}
          <button type="button" className="underline" onClick={saver.discardOthers}>discard</button>
        </span>
      ))}
      <button type="button" onClick={() => void saver.undo()} className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100">undo (u)</button>
      <button type="button" onClick={() => store.getState().setOverlay("help")} className="rounded border border-slate-300 px-2 py-0.5 text-slate-600 hover:bg-slate-100">? keys</button>
    </div>
  );
}
