"use client";

import { useEffect, useState } from "react";
import type { EventContext, TraceContext, UnitCall, UnitContext, UnitEvent, UnitMessage } from "@/lib/annotate/unit";
import { call, type ApiResult } from "@/lib/api/client";
import { annotationContext } from "@/lib/api/contracts/annotations";
import { ContentText } from "./content-text";

/**
 * What is being graded, fetched from the API per unit (never put into the
 * page's HTML): an event's content, what it read and a tool call's result
 * side by side; for a whole trace the task, the final answer and a compact
 * timeline.
 */
const contextCache = new Map<string, UnitContext>();

/** Resolves once some unit of the trace has its content drawn (the label view then asks for credit, which costs the server seconds on a big trace). */
const shown = new Map<string, { promise: Promise<void>; resolve: () => void }>();
function shownEntry(traceId: string) {
  let entry = shown.get(traceId);
  if (!entry) {
    let resolve = () => {};
    const promise = new Promise<void>((r) => (resolve = r));
    entry = { promise, resolve };
    shown.set(traceId, entry);
  }
  return entry;
}
export const contextShown = (traceId: string): Promise<void> => shownEntry(traceId).promise;

/** The requests on their way, by key: every view of one unit (its content, its "change this step") shares one. */
const inflight = new Map<string, Promise<ApiResult<UnitContext>>>();

function contextOf(key: string, traceId: string, eventId: string | null): Promise<ApiResult<UnitContext>> {
  let request = inflight.get(key);
  if (!request) {
    request = call(annotationContext, { params: { id: traceId }, query: eventId === null ? {} : { event: eventId } }).then((result) => {
      inflight.delete(key);
      if (result.ok) {
        contextCache.set(key, result.data);
        if (contextCache.size > 200) contextCache.delete(contextCache.keys().next().value!);
      }
      return result;
    });
    inflight.set(key, request);
  }
  return request;
}

export function useUnitContext(traceId: string, eventId: string | null): { context: UnitContext | null; error: string | null } {
  const key = `${traceId}\u0000${eventId ?? ""}`;
  const [state, setState] = useState<{ key: string; context: UnitContext | null; error: string | null }>(() => ({ key, context: contextCache.get(key) ?? null, error: null }));
  useEffect(() => {
    if (contextCache.has(key)) return;
    let cancelled = false;
    void contextOf(key, traceId, eventId).then((result) => {
      if (cancelled) return;
      if (!result.ok) return setState({ key, context: null, error: result.message });
      setState({ key, context: result.data, error: null });
      shownEntry(traceId).resolve();
    });
    return () => {
      cancelled = true;
    };
  }, [key, traceId, eventId]);
  const cached = contextCache.get(key) ?? null;
  return state.key === key ? { context: state.context ?? cached, error: state.error } : { context: cached, error: null };
}

export function UnitContextView({ traceId, eventId }: { traceId: string; eventId: string | null }) {
  const { context, error } = useUnitContext(traceId, eventId);
  if (error) return <p className="text-sm text-rose-700" data-testid="unit-error">Could not load the content: {error}</p>;
  if (!context) return <p className="text-sm text-slate-500" data-testid="unit-loading">Loading the content…</p>;
  return context.unit === "trace" ? <TraceUnit context={context} /> : <EventUnit context={context} />;
}

function EventHead({ e }: { e: UnitEvent }) {
  return (
    <p className="text-sm">
      <span className="font-mono text-slate-500">{e.id}</span> <strong>{e.type}</strong>
      {e.decision ? ` (${e.decision})` : ""} by {e.agent}
      {e.role ? ` (${e.role})` : ""}
      {e.tool ? ` · tool ${e.tool}` : ""}
      {e.from || e.to ? ` · ${e.from ?? "?"} → ${e.to ?? "?"}` : ""}
      {e.tokens !== null ? ` · ${e.tokens.toLocaleString("en")} tokens` : ""} · t = {e.t}
      {e.status === "error" && <span className="ml-2 rounded bg-rose-100 px-1 text-xs text-rose-800">error</span>}
    </p>
  );
}

function EventUnit({ context }: { context: EventContext }) {
  const e = context.event;
  const toolCall = e.type === "tool_call";
  return (
    <div className="space-y-3" data-testid="unit-context" data-unit="event" data-event-id={e.id}>
      <EventHead e={e} />
      {toolCall ? (
        <div className="grid gap-2 md:grid-cols-2" data-testid="tool-pair">
          <section>
            <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Arguments</h4>
            <ContentText content={e.content} length={e.content_length} testId="unit-content" />
          </section>
          <section>
            <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Result</h4>
            {context.results.length === 0 && <p className="text-sm italic text-slate-500">no tool_result follows this call</p>}
            {context.results.map((r) => (
              <div key={r.id} data-testid="tool-result">
                <p className="text-xs text-slate-500"><span className="font-mono">{r.id}</span>{r.status === "error" ? " · error" : ""}</p>
                <ContentText content={r.content} length={r.content_length} testId="tool-result-content" />
              </div>
            ))}
          </section>
        </div>
      ) : (
        <section>
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Content</h4>
          <ContentText content={e.content} length={e.content_length} testId="unit-content" />
        </section>
      )}
      {context.call ? <CallPrompt call={context.call} /> : null}
      <section data-testid="unit-read">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">What it read ({context.read.length + context.read_more})</h4>
        {context.read.length === 0 && <p className="text-sm italic text-slate-500">nothing: no causal predecessor</p>}
        {context.read.map((r) => (
          <details key={r.id} className="mt-1 rounded border border-slate-200 px-2 py-1" data-testid="read-item" data-event-id={r.id}>
            <summary className="cursor-pointer text-sm">
              <span className="font-mono text-xs text-slate-500">{r.id}</span> {r.type} by {r.agent} <span className="text-xs text-slate-500">via {r.edge}</span>
            </summary>
            <ContentText content={r.content} length={r.content_length} />
          </details>
        ))}
        {context.read_more > 0 && <p className="text-xs text-slate-500">and {context.read_more.toLocaleString("en")} more not shown</p>}
      </section>
    </div>
  );
}

/** The model call the step came from: the messages it was sent, then its answer (untrusted text, shown as text). */
function CallPrompt({ call }: { call: UnitCall }) {
  return (
    <details className="rounded border border-slate-200 px-2 py-1" data-testid="unit-call" data-call-id={call.id}>
      <summary className="cursor-pointer text-sm">
        The prompt this step came from: model call <span className="font-mono text-xs">{call.id}</span>
        {call.model ? ` (${call.model})` : ""} by {call.agent}, {call.input.length} message{call.input.length === 1 ? "" : "s"}
        {call.events.length > 1 ? `, ${call.events.length} events produced` : ""}
      </summary>
      <ol className="mt-1 space-y-1">
        {call.input.map((m, i) => (
          <li key={i} data-testid="call-message">
            <p className="text-xs font-semibold text-slate-500">
              {m.role}
              {m.tool_call_id !== undefined && <span className="font-normal"> · result of tool call <span className="font-mono">{m.tool_call_id}</span></span>}
            </p>
            <CallMessageBody message={m} />
          </li>
        ))}
        <li data-testid="call-output">
          <p className="text-xs font-semibold text-slate-500">answer ({call.output.role})</p>
          <CallMessageBody message={call.output} />
        </li>
      </ol>
    </details>
  );
}

/** A call message's text, then each tool it called with its arguments (all as text). */
function CallMessageBody({ message }: { message: UnitMessage }) {
  const calls = message.tool_calls ?? [];
  return (
    <>
      {message.content !== "" ? <ContentText content={message.content} /> : calls.length === 0 && <p className="text-xs italic text-slate-500">no text</p>}
      {calls.length > 0 && (
        <ul className="mt-0.5 space-y-0.5" data-testid="call-tool-calls">
          {calls.map((c, i) => (
            <li key={i} className="font-mono text-xs" data-testid="call-tool-call">
              calls <span className="font-semibold">{c.name}</span>({c.arguments}){c.id !== null && <span className="text-slate-500"> · id {c.id}</span>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function TraceUnit({ context }: { context: TraceContext }) {
  return (
    <div className="space-y-3" data-testid="unit-context" data-unit="trace">
      <p className="text-sm">
        The whole trace <span className="font-mono">{context.trace_id}</span> · task <span className="font-mono">{context.task_id}</span>
        {context.system ? ` · ${context.system}` : ""} · {context.events.toLocaleString("en")} events
      </p>
      <section>
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Task{context.task_source ? ` (${context.task_source})` : ""}</h4>
        <ContentText content={context.task} testId="trace-task" />
      </section>
      {context.reference && (
        <section>
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Reference answer ({context.reference.source})</h4>
          <ContentText content={context.reference.text} testId="trace-reference" />
        </section>
      )}
      {context.fields.length > 0 && (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm" data-testid="trace-fields">
          {context.fields.map((f) => (
            <div key={f.source} className="contents" data-testid="trace-field" data-source={f.source}>
              <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500" title={f.source}>{f.label}</dt>
              <dd className="whitespace-pre-wrap break-words">{f.text ?? <span className="text-slate-400">— (not in this run)</span>}</dd>
            </div>
          ))}
        </dl>
      )}
      {context.policy && (
        <details data-testid="trace-policy">
          <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">
            Policy / system prompt ({context.policy.source}, {context.policy.text.length.toLocaleString("en")} characters)
          </summary>
          <ContentText content={context.policy.text} testId="trace-policy-text" />
        </details>
      )}
      <section>
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Final answer{context.final_answer ? ` (${context.final_answer.id}, ${context.final_answer.type} by ${context.final_answer.agent})` : ""}</h4>
        <ContentText content={context.final_answer?.content ?? null} length={context.final_answer?.content_length} testId="trace-answer" />
      </section>
      <section>
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Timeline</h4>
        <p className="text-xs text-slate-600">{context.agents.map((a) => `${a.agent} (${a.events})`).join(" · ")}</p>
        <ol className="mt-1 space-y-0.5 text-xs" data-testid="trace-timeline">
          {context.timeline.map((e, i) => (
            <li key={e.seq}>
              {i > 0 && context.timeline_gap > 0 && e.seq !== context.timeline[i - 1]!.seq + 1 && (
                <span className="block text-slate-500">… {context.timeline_gap.toLocaleString("en")} events …</span>
              )}
              <span className="font-mono text-slate-500">{e.seq + 1}</span> {e.agent}: {e.summary}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
