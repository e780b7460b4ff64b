"use client";

import { formText, sendJson } from "@/lib/api/send";
import { useAdminCall } from "@/app/admin/_components/use-admin-call";
import { DATASET_FORMS } from "@/lib/datasets/request";

const METHODS = ["ccp", "uniform", "terminal", "mc_return", "grpo", "gigpo"] as const;

/** Takes a snapshot: name, the trace list's filter as a query string (`project=x&from=2026-12-01`), form (Baton's or a trainer's), format, credit settings and, for event rows, their text. */
export function SnapshotForm() {
  const { error, run } = useAdminCall();
  const submit = (form: FormData) => {
    const filter = Object.fromEntries(new URLSearchParams(formText(form, "filter").trim().replace(/^\?/, "")));
    const preset = formText(form, "preset").trim();
    const body = { name: formText(form, "name").trim(), filter, form: formText(form, "form"), format: formText(form, "format"), method: formText(form, "method"), ...(preset !== "" && { preset }), ...(form.get("content") === "on" && { content: true }) };
    void run(sendJson("POST", "/api/datasets", body));
  };
  return (
    <form action={submit} className="flex flex-wrap items-end gap-2 rounded border border-slate-200 bg-white p-3 text-sm" data-testid="snapshot-form">
      <label className="flex flex-col">name <input name="name" required className="rounded border border-slate-300 px-1" /></label>
      <label className="flex flex-col">filter <input name="filter" placeholder="project=default&from=2026-12-01" className="w-72 rounded border border-slate-300 px-1" /></label>
      <label className="flex flex-col">form <select name="form" className="rounded border border-slate-300">{DATASET_FORMS.map((f) => <option key={f}>{f}</option>)}</select></label>
      <label className="flex flex-col">format <select name="format" className="rounded border border-slate-300"><option>parquet</option><option>jsonl</option></select></label>
      <label className="flex flex-col">method <select name="method" className="rounded border border-slate-300">{METHODS.map((m) => <option key={m}>{m}</option>)}</select></label>
      <label className="flex items-center gap-1" title="the rows form only: each event's text"><input type="checkbox" name="content" /> content (rows)</label>
      <label className="flex flex-col">preset <input name="preset" placeholder="uniform" className="w-40 rounded border border-slate-300 px-1" /></label>
      <button type="submit" className="rounded bg-slate-900 px-2 py-1 text-white hover:bg-slate-700">Take snapshot</button>
      {error && <span className="text-red-700">{error}</span>}
    </form>
  );
}
