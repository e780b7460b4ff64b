"use client";

import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { LIST_FILTER_KEYS } from "@/lib/api/filters";
import { call, describeFailure, formBody } from "@/lib/api/client";
import { createDataset, previewDataset } from "@/lib/api/contracts/datasets";
import { formText } from "@/lib/api/send";
import { snapshotWarnings, type DatasetPreview } from "@/lib/datasets/preview";
import { TraceFilterFields, type Facets } from "@/app/_components/trace-filters";
import { useAdminCall } from "@/app/admin/_components/use-admin-call";
import { DATASET_FORMS } from "@/lib/datasets/request";

const METHODS = ["ccp", "uniform", "terminal", "mc_return", "grpo", "gigpo"] as const;
/** How long the page waits after the last change before counting again. */
const PREVIEW_DELAY_MS = 300;

type Preview = { state: "counting" } | { state: "ready"; preview: DatasetPreview; form: string; method: string; stale?: boolean } | { state: "error"; message: string };

/** The snapshot request the form stands for: the trace list's filter fields (empty ones left out), form, format and credit settings. */
function requestOf(form: HTMLFormElement) {
  const data = new FormData(form);
  const filter: Record<string, string> = {};
  for (const key of LIST_FILTER_KEYS) {
    const value = formText(data, key);
    if (value.trim() !== "") filter[key] = value;
  }
  const preset = formText(data, "preset").trim();
  const chosen = formText(data, "form");
  return {
    name: formText(data, "name").trim(), filter, form: chosen, format: formText(data, "format"), method: formText(data, "method"), ...(preset !== "" && { preset }),
    // each event's text: the rows form only
    ...(chosen === "rows" && data.get("content") === "on" && { content: true }),
  };
}

/**
 * Takes a snapshot: name, the trace list's own filter fields (the same keys,
 * partial matches and labels as the list), form, format and credit
 * settings. While the fields change, `POST /api/datasets/preview` counts
 * (debounced) the traces the filter selects, the rows the form gives and the
 * traces the build would skip, with a warning before anything is taken.
 */
export function SnapshotForm({ values, facets }: { values: Record<string, string>; facets: Facets }) {
  const { error, run } = useAdminCall();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(0);
  const [preview, setPreview] = useState<Preview>({ state: "counting" });

  const count = useCallback(async () => {
    if (!formRef.current) return;
    const { name: _name, ...body } = requestOf(formRef.current);
    const asked = ++latest.current;
    const result = await call(previewDataset, { body: formBody(previewDataset, body) });
    if (asked !== latest.current) return; // a newer change is being counted
    setPreview(result.ok ? { state: "ready", preview: result.data, form: body.form, method: body.method } : { state: "error", message: describeFailure(result) });
  }, []);

  const schedule = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    setPreview((p) => (p.state === "ready" ? { ...p, stale: true } : { state: "counting" }));
    timer.current = setTimeout(() => void count(), PREVIEW_DELAY_MS);
  }, [count]);

  // the first count, of the fields as drawn (the state starts as "counting")
  useEffect(() => {
    timer.current = setTimeout(() => void count(), 0);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [count]);

  // not a form action: React would reset the fields, and the person would no longer see what the snapshot was taken of
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(call(createDataset, { body: formBody(createDataset, requestOf(event.currentTarget)) }));
  };
  return (
    <form ref={formRef} onSubmit={submit} onChange={schedule} className="space-y-3 rounded border border-slate-200 bg-white p-3 text-sm" data-testid="snapshot-form" aria-label="Take a snapshot">
      <p className="text-xs text-slate-600">Traces: the trace list&apos;s filters (System, Task and Group match part of a name, in any case).</p>
      <TraceFilterFields values={values} facets={facets} />
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col">name <input name="name" required className="rounded border border-slate-300 px-1" /></label>
        <label className="flex flex-col">form <select name="form" className="rounded border border-slate-300">{DATASET_FORMS.map((f) => <option key={f}>{f}</option>)}</select></label>
        <label className="flex flex-col">format <select name="format" className="rounded border border-slate-300"><option>parquet</option><option>jsonl</option></select></label>
        <label className="flex flex-col">method <select name="method" className="rounded border border-slate-300">{METHODS.map((m) => <option key={m}>{m}</option>)}</select></label>
        <label className="flex items-center gap-1" title="the rows form only: each event's text"><input type="checkbox" name="content" /> content (rows)</label>
        <label className="flex flex-col">preset <input name="preset" placeholder="uniform" className="w-40 rounded border border-slate-300 px-1" /></label>
        <button type="submit" className="rounded bg-slate-900 px-2 py-1 text-white hover:bg-slate-700">Take snapshot</button>
        {error && <span className="text-red-700" role="alert">{error}</span>}
      </div>
      <PreviewLine preview={preview} />
    </form>
  );
}

function PreviewLine({ preview }: { preview: Preview }) {
  if (preview.state === "error") return <p className="text-red-700" data-testid="snapshot-preview" data-state="error">Cannot count: {preview.message}</p>;
  if (preview.state === "counting") return <p className="text-slate-500" data-testid="snapshot-preview" data-state="counting">Counting…</p>;
  const { preview: p, form, method, stale } = preview;
  const n = (k: number) => k.toLocaleString("en");
  const warnings = snapshotWarnings({ rows: p.rows, traces: p.traces, without_calls: p.skipped.without_calls, no_group: p.skipped.no_group, replays: p.replays }, form, method);
  return (
    <div className={`space-y-1 ${stale ? "opacity-60" : ""}`} data-testid="snapshot-preview" data-state={stale ? "counting" : "ready"} data-traces={p.traces} data-rows={p.rows}>
      <p className="text-slate-800">
        The filter selects <strong>{n(p.traces)}</strong> {p.traces === 1 ? "trace" : "traces"}; a {form} snapshot would hold <strong>{n(p.rows)}</strong> {p.rows === 1 ? "row" : "rows"} (one per {p.row_unit}) from {n(p.traces_kept)} of them.
      </p>
      {warnings.map((w) => (
        <p key={w} className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-amber-900" data-testid="preview-warning">{w}</p>
      ))}
    </div>
  );
}
