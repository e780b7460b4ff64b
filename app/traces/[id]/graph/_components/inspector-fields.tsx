"use client";
import { use, useState } from "react";
import { formatField } from "@/components/trace-graph/format";
import { useGraphActions } from "@/components/trace-graph/store/context";

/** Longer content is shown in part until asked for, and the cut is always stated. */
const PREVIEW_CHARS = 20_000;
const OPEN_BELOW_CHARS = 4_000;

/** Untrusted text: a React text node in a <pre>, so markup and scripts show as characters and never run. */
function Content({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > PREVIEW_CHARS;
  return (
    <details open={text.length <= OPEN_BELOW_CHARS} className="rounded border border-slate-200">
      <summary className="cursor-pointer bg-slate-50 px-2 py-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
        Content ({text.length.toLocaleString("en")} characters)
      </summary>
      <pre tabIndex={0} className="max-h-96 overflow-auto whitespace-pre-wrap break-words p-2 font-mono text-xs text-slate-800" data-testid="event-content">
        {cut ? text.slice(0, PREVIEW_CHARS) : text}
      </pre>
      {cut ? (
        <button type="button" onClick={() => setAll(true)} className="m-2 text-xs text-blue-700 underline">
          Showing the first {PREVIEW_CHARS.toLocaleString("en")} of {text.length.toLocaleString("en")} characters — show all
        </button>
      ) : null}
    </details>
  );
}

/** Every field of the event as the API returns it, then its content. */
export function EventFields({ seq }: { seq: number }) {
  const actions = useGraphActions();
  const record = use(actions.eventRecord(seq));
  if (!record.ok) return <p className="text-sm text-red-700">Could not load the event: {record.message}</p>;
  const { content, ...fields } = record.data;
  return (
    <section className="space-y-2">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Fields</h3>
      <dl className="grid grid-cols-[7rem_1fr] gap-x-2 gap-y-0.5 text-xs" data-testid="inspector-fields">
        {Object.entries(fields).map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="font-mono text-slate-500">{key}</dt>
            <dd className="break-all font-mono text-slate-900">{formatField(value)}</dd>
          </div>
        ))}
      </dl>
      {typeof content === "string" ? <Content text={content} /> : <p className="text-xs text-slate-500">No content.</p>}
    </section>
  );
}
