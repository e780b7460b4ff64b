"use client";

import { useCallback, useEffect, useState } from "react";
import { call as send, describeFailure } from "@/lib/api/client";
import { createIntervention, listInterventions } from "@/lib/api/contracts/replay";
import type { ApiIntervention, ApiRun, ConfirmedSuspect } from "@/lib/api/replay";
import { ConfirmedSuspects } from "./confirmed-suspects";
import type { UnitCall } from "@/lib/annotate/unit";
import type { EDIT_INTENTS } from "@/lib/replay/edit";

/**
 * "Change this step" (SPEC.md section 11, docs/replay.md "In the browser"):
 * an intervention on the model call a step came from — its reply text, or the
 * text of a tool result it read, replaced — with an intent and 1 to 5
 * samples. Shows each fork's run key and the base URL to point the program
 * at, and how far each run has come (its runner's state when one runs it).
 * Everything from the trace is shown as text.
 */

type Intent = (typeof EDIT_INTENTS)[number];
const INTENTS: { value: Intent; text: string }[] = [
  { value: "correct", text: "correct it" },
  { value: "remove", text: "remove it" },
  { value: "neutralise", text: "neutralise it" },
];


export function ChangeStep({ traceId, call, runners, disabled }: { traceId: string; call: UnitCall; runners: string[]; disabled: boolean }) {
  const readsTool = call.input.some((m) => m.role === "tool");
  const [target, setTarget] = useState<"reply" | "tool_result">("reply");
  const [text, setText] = useState(call.output.content);
  const [toolCallId, setToolCallId] = useState("");
  const [intent, setIntent] = useState<Intent>("correct");
  const [samples, setSamples] = useState(1);
  const [runner, setRunner] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [list, setList] = useState<ApiIntervention[] | null>(null);
  const [confirmed, setConfirmed] = useState<ConfirmedSuspect[]>([]);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let cancelled = false;
    void send(listInterventions, { params: { id: traceId } }).then((r) => {
      if (cancelled) return;
      if (r.ok) {
        setList(r.data.interventions.filter((i) => i.call_id === call.id));
        setConfirmed((r.data.confirmed_by_replay ?? []).filter((c) => c.call_id === call.id));
      } else setMessage(describeFailure(r));
    });
    return () => {
      cancelled = true;
    };
  }, [traceId, call.id, version]);

  const pickTarget = (next: "reply" | "tool_result") => {
    setTarget(next);
    setText(next === "reply" ? call.output.content : ([...call.input].reverse().find((m) => m.role === "tool")?.content ?? ""));
  };

  const submit = useCallback(async () => {
    setMessage("creating…");
    const edit = target === "reply" ? { reply: { content: text } } : { tool_result: { content: text, ...(toolCallId.trim() && { tool_call_id: toolCallId.trim() }) } };
    const r = await send(createIntervention, { params: { id: traceId }, body: { call_id: call.id, edit, intent, samples, ...(runner && { runner }) } });
    if (!r.ok) return setMessage(`not created: ${describeFailure(r)}`);
    setMessage(runner ? `intervention ${r.data.intervention.id} created: runner ${runner} runs the program once per fork (Refresh states to follow it)` : `intervention ${r.data.intervention.id} created: run the program once per base URL below, then flush each run (or let it go idle)`);
    setVersion((v) => v + 1);
  }, [traceId, call.id, target, text, toolCallId, intent, samples, runner]);

  return (
    <details className="rounded border border-indigo-200 bg-indigo-50/40 px-2 py-1 text-sm dark:bg-transparent" data-testid="change-step" data-call-id={call.id}>
      <summary className="cursor-pointer font-semibold">
        Change this step <span className="font-normal text-slate-600">— replay the run with model call <span className="font-mono text-xs">{call.id}</span> changed, and measure the effect</span>
      </summary>
      <form
        className="mt-2 space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <fieldset className="flex flex-wrap gap-3">
          <legend className="sr-only">What to replace</legend>
          <label className="flex items-center gap-1">
            <input type="radio" name="target" checked={target === "reply"} onChange={() => pickTarget("reply")} disabled={disabled} /> the call&apos;s reply text
          </label>
          <label className={`flex items-center gap-1 ${readsTool ? "" : "text-slate-400"}`} title={readsTool ? undefined : "this call reads no tool result"}>
            <input type="radio" name="target" checked={target === "tool_result"} onChange={() => pickTarget("tool_result")} disabled={disabled || !readsTool} /> a tool result it read
          </label>
        </fieldset>
        <label className="block">
          <span className="text-xs text-slate-600">{target === "reply" ? "New reply (replaces the whole reply: its tool calls too)" : "New tool result text (the model reads this instead)"}</span>
          {target === "reply" && (call.output.tool_calls?.length ?? 0) > 0 && (
            <span className="block text-xs text-slate-600" data-testid="change-recorded-tools">
              The recorded reply called {call.output.tool_calls!.map((c) => c.name).join(", ")}; a text reply here calls none.
            </span>
          )}
          <textarea value={text} onChange={(e) => setText(e.target.value)} rows={3} className="mt-0.5 block w-full rounded border border-slate-300 px-2 py-1 font-mono text-xs" aria-label="Replacement text" data-testid="change-text" disabled={disabled} />
        </label>
        {target === "tool_result" && (
          <label className="block">
            <span className="text-xs text-slate-600">tool call id (only when the call reads several tool results)</span>
            <input value={toolCallId} onChange={(e) => setToolCallId(e.target.value)} className="ml-2 w-48 rounded border border-slate-300 px-2 py-0.5 font-mono text-xs" aria-label="Tool call id" disabled={disabled} />
          </label>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <label>
            Intent{" "}
            <select value={intent} onChange={(e) => setIntent(e.target.value as Intent)} className="rounded border border-slate-300 px-1 py-0.5" aria-label="Intent" data-testid="change-intent" disabled={disabled}>
              {INTENTS.map((i) => <option key={i.value} value={i.value}>{i.text}</option>)}
            </select>
          </label>
          <label>
            Samples{" "}
            <input type="number" min={1} max={5} value={samples} onChange={(e) => setSamples(Math.min(5, Math.max(1, Math.round(Number(e.target.value) || 1))))} className="w-14 rounded border border-slate-300 px-1 py-0.5" aria-label="Samples" data-testid="change-samples" disabled={disabled} />
          </label>
          {runners.length > 0 && (
            <label>
              Run by{" "}
              <select value={runner} onChange={(e) => setRunner(e.target.value)} className="rounded border border-slate-300 px-1 py-0.5" aria-label="Runner" data-testid="change-runner" disabled={disabled}>
                <option value="">me (I run the program)</option>
                {runners.map((name) => <option key={name} value={name}>runner {name}</option>)}
              </select>
            </label>
          )}
          <button type="submit" disabled={disabled} className="rounded bg-indigo-700 px-2 py-1 text-indigo-50 hover:bg-indigo-600 disabled:opacity-50" data-testid="change-submit">Create the forks</button>
          <button type="button" onClick={() => setVersion((v) => v + 1)} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100" data-testid="change-refresh">Refresh states</button>
        </div>
        {disabled && <p className="text-xs text-slate-600">Creating forks needs ingest rights in the trace&apos;s project.</p>}
      </form>
      {message && <p className="mt-1 text-xs text-slate-700" role="status" data-testid="change-message">{message}</p>}
      {list && list.length > 0 && (
        <ul className="mt-2 space-y-2" data-testid="change-interventions">
          {[...list].reverse().map((i) => (
            <li key={i.id} data-testid="change-intervention" data-intervention-id={i.id}>
              <p className="text-xs font-semibold">Intervention {i.id}: {i.intent}, {i.samples} sample{i.samples === 1 ? "" : "s"}</p>
              <RunTable runs={i.runs} />
            </li>
          ))}
        </ul>
      )}
      {list && list.length === 0 && <p className="mt-1 text-xs text-slate-500">No intervention on this call yet.</p>}
      <ConfirmedSuspects traceId={traceId} confirmed={confirmed} />
    </details>
  );
}

function RunTable({ runs }: { runs: ApiRun[] }) {
  return (
    <table className="mt-1 w-full text-left text-xs">
      <thead className="text-slate-500">
        <tr><th className="pr-2 font-normal">#</th><th className="pr-2 font-normal">run key</th><th className="pr-2 font-normal">base URL (OPENAI_BASE_URL)</th><th className="font-normal">state</th></tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.run_key} data-testid="change-run" data-run-key={r.run_key} data-base-url={r.base_url} data-state={r.state ?? ""}>
            <td className="pr-2 align-top">{r.sample}</td>
            <td className="pr-2 align-top font-mono">{r.run_key}</td>
            <td className="break-all pr-2 align-top font-mono">{r.base_url}</td>
            <td className="align-top">
              {r.state === "stored" ? <a className="text-blue-700 underline" href={`/traces/${encodeURIComponent(r.trace_id)}`}>stored</a> : (r.state ?? "waiting")}
              {r.divergence ? " · diverged" : ""}
              {r.runner ? ` · runner ${r.runner.name}: ${r.runner.state ?? "queued"}${r.runner.exit !== null ? ` (exit ${r.runner.exit})` : ""}` : ""}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
