"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { splitTraceIds } from "@/lib/api/queues";
import { call, describeFailure, formBody } from "@/lib/api/client";
import { createQueue, previewQueue } from "@/lib/api/contracts/queues";
import { formText } from "@/lib/api/send";
import { DECISIONS, EVENT_TYPES, FAMILIES } from "@/lib/trace/types";
import { OrderSelect } from "./order-select";
import { counted } from "@/lib/format";

/**
 * An admin builds a queue: a filter choosing the items, families,
 * annotators, N per item, blind. A failed create keeps what was typed (a
 * plain onSubmit, not a form action, which would reset the form) and the
 * preview says how many items the filter gives before anything is created,
 * and follows every change of the form once shown (never a stale count).
 * Trace ids may be pasted one per line or separated by commas or spaces;
 * each unknown one is named.
 */
export function NewQueueForm({ projects, users, openMode, traceIds = "" }: { projects: string[]; users: { email: string; name: string }[]; openMode: boolean; traceIds?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const filterOf = (form: FormData) => {
    const e1 = formText(form, "e1");
    const filter = {
      unit: formText(form, "unit") || "event",
      ...(splitTraceIds(formText(form, "trace_ids")).length > 0 && { trace_ids: splitTraceIds(formText(form, "trace_ids")) }),
      ...(formText(form, "system") && { system: formText(form, "system") }),
      ...(formText(form, "task_id") && { task_id: formText(form, "task_id") }),
      ...(e1 !== "" && { e1: Number(e1) }),
      ...(form.getAll("event_types").length > 0 && { event_types: form.getAll("event_types") }),
      ...(formText(form, "decision") && { decision: formText(form, "decision") }),
      ...(form.get("tool_result_error") === "on" && { tool_result_error: true }),
    };
    return filter;
  };
  const formRef = useRef<HTMLFormElement>(null);
  const asked = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const previewItems = async (form: FormData) => {
    const n = ++asked.current;
    setPreview("counting…");
    const result = await call(previewQueue, { body: formBody(previewQueue, { project: formText(form, "project"), filter: filterOf(form) }) });
    // only the answer to the latest form counts
    if (n !== asked.current) return;
    setPreview(result.ok ? `${counted(result.data.items, "item")} ${result.data.items === 1 ? "matches" : "match"}` : describeFailure(result));
  };
  // once a preview is shown, every change of the form counts again (debounced)
  const onFormChange = (target: EventTarget) => {
    const el = target as HTMLInputElement;
    if (el.name === "families" && el.value === "decisive_error" && el.checked && formRef.current) {
      // the decisive error is asked of whole traces
      (formRef.current.elements.namedItem("unit") as HTMLSelectElement).value = "trace";
    }
    if (preview === null || !formRef.current) return;
    if (timer.current) clearTimeout(timer.current);
    const form = formRef.current;
    timer.current = setTimeout(() => void previewItems(new FormData(form)), 300);
  };
  useEffect(() => () => { if (timer.current) clearTimeout(timer.current); }, []);
  const submit = async (form: FormData) => {
    const filter = filterOf(form);
    const body = {
      project: formText(form, "project"),
      name: formText(form, "name"),
      families: form.getAll("families"),
      annotators_per_item: Number(formText(form, "n")),
      blind: form.get("blind") === "on",
      order: formText(form, "order"),
      assignees: form.getAll("assignees"),
      filter,
    };
    const result = await call(createQueue, { body: formBody(createQueue, body) });
    if (!result.ok) return setError(describeFailure(result));
    router.push(`/queues/${result.data.queue.id}`);
  };
  const box = "min-w-0 rounded border border-slate-200 bg-white p-3 space-y-2";
  return (
    <form
      ref={formRef}
      onChange={(e) => onFormChange(e.target)}
      onSubmit={(e) => {
        e.preventDefault();
        void submit(new FormData(e.currentTarget));
      }}
      className="grid max-w-4xl gap-3 text-sm md:grid-cols-2" aria-label="New queue">
      <fieldset className={box}>
        <legend className="font-semibold">Queue</legend>
        <label className="block">Name <input name="name" required className="ml-2 rounded border border-slate-300 px-2 py-0.5" /></label>
        <label className="block">Project <select name="project" className="ml-2 rounded border border-slate-300">{projects.map((p) => <option key={p}>{p}</option>)}</select></label>
        <label className="block">Annotators per item <input name="n" type="number" min={1} max={openMode ? 1 : 20} defaultValue={1} className="ml-2 w-16 rounded border border-slate-300 px-1" /></label>
        <label className="block"><input type="checkbox" name="blind" defaultChecked /> Blind: annotators do not see each other&apos;s values</label>
        <OrderSelect value="trace" />
      </fieldset>
      <fieldset className={box}>
        <legend className="font-semibold">Families to label</legend>
        {FAMILIES.map((f) => <label key={f} className="mr-3 inline-block"><input type="checkbox" name="families" value={f} /> {f}</label>)}
        <label className="block"><input type="checkbox" name="families" value="decisive_error" /> decisive_error: the event after which a (failed) run could no longer succeed, asked of whole traces (<kbd>w</kbd> or guided questions)</label>
      </fieldset>
      <fieldset className={box}>
        <legend className="font-semibold">Items: which events</legend>
        <label className="block">Unit <select name="unit" className="ml-2 rounded border border-slate-300"><option value="event">events</option><option value="trace">whole traces</option></select></label>
        <label className="block">Traces (ids: one per line, or separated by commas or spaces)
          <textarea name="trace_ids" defaultValue={traceIds.split(",").filter(Boolean).join("\n")} rows={3} spellCheck={false} className="mt-1 block w-full rounded border border-slate-300 px-2 py-0.5 font-mono text-xs" />
        </label>
        <label className="block">System <input name="system" className="ml-2 rounded border border-slate-300 px-2 py-0.5" /></label>
        <label className="block">Task <input name="task_id" className="ml-2 rounded border border-slate-300 px-2 py-0.5" /></label>
        <label className="block">Traces <select name="e1" className="ml-2 rounded border border-slate-300"><option value="">all</option><option value="0">failed (E1 = 0)</option><option value="1">succeeded (E1 = 1)</option></select></label>
        <div>{EVENT_TYPES.map((t) => <label key={t} className="mr-3 inline-block"><input type="checkbox" name="event_types" value={t} /> {t}</label>)}</div>
        <label className="block">Decision <select name="decision" className="ml-2 rounded border border-slate-300"><option value="">any</option>{DECISIONS.map((d) => <option key={d}>{d}</option>)}</select></label>
        <label className="block"><input type="checkbox" name="tool_result_error" /> only tool calls whose result was an error</label>
      </fieldset>
      <fieldset className={box}>
        <legend className="font-semibold">Annotators</legend>
        {users.length === 0 && <p className="text-slate-500">No user accounts yet: create annotators on the admin page.</p>}
        {openMode && (
          <p className="text-slate-600" data-testid="open-mode-annotators">
            Open local mode: the queue is for you, the local user, one annotator per item. Agreement needs two people or more, each with an
            account: create the first admin with the setup link Baton prints at start (or <code>BATON_ADMIN_EMAIL</code> and{" "}
            <code>BATON_ADMIN_PASSWORD</code>), sign in, and add annotators on the <a href="/admin" className="text-blue-700 underline">admin page</a>;
            they are listed here then.
          </p>
        )}
        {users.map((u) => <label key={u.email} className="block"><input type="checkbox" name="assignees" value={u.email} defaultChecked={openMode} /> {u.name} ({u.email})</label>)}
      </fieldset>
      <div className="md:col-span-2">
        <button type="button" className="mr-2 rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-100" onClick={(e) => void previewItems(new FormData(e.currentTarget.form!))} data-testid="queue-preview-button">Preview item count</button>
        <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-white hover:bg-slate-700">Create queue</button>
        {preview && <span className="ml-3" data-testid="queue-preview">{preview}</span>}
        {error && <p className="mt-2 text-rose-700" data-testid="queue-error">{error}</p>}
      </div>
    </form>
  );
}
