"use client";

import { useEffect, useState } from "react";
import { answerQuestion, nextQuestion, startGuided, type GuidedState, type GuidedStep } from "@/lib/blame/guided";
import type { BlameRanking } from "@/lib/blame/types";
import { askedEvents, stepNumber } from "@/lib/trace/steps";
import { call, describeFailure } from "@/lib/api/client";
import { traceBlame } from "@/lib/api/contracts/analysis";
import { useLabeling, useLabelingStore } from "./store";
import { useLabelKeys } from "./use-label-keys";
import { counted } from "@/lib/format";

/**
 * Finding the decisive error with a few questions: "is the run still on
 * track after step k?", k chosen by bisection weighted by the best
 * attribution method's ranking (lib/blame/guided.ts), the asked step shown
 * in the panel below. Steps are those a person reads (lib/trace/steps.ts):
 * a dataset's own steps, each asked about once, numbered as the dataset
 * numbers them. `y` / `n` answer. The first step after which the run
 * is off track is offered as the caller's decisive error; contradictory
 * answers are listed, not hidden.
 */
export function GuidedSearch({ disabled, onFound }: { disabled: boolean; onFound: (eventId: string, reason: string) => void }) {
  const store = useLabelingStore();
  const traceId = useLabeling((s) => s.traceId);
  const allLoaded = useLabeling((s) => s.loaded >= s.total && s.total > 0);
  const [state, setState] = useState<GuidedState | null>(null);
  /** event order index of each step the search walks */
  const [asked, setAsked] = useState<number[]>([]);
  const [prior, setPrior] = useState<{ method: string; note: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const step: GuidedStep | null = state ? nextQuestion(state) : null;

  const start = async () => {
    setError(null);
    const r = await call(traceBlame, { params: { id: traceId }, query: { method: "best" } });
    const rows = store.getState().rows;
    const walked = askedEvents(rows.map((row) => row!.step));
    const ids = walked.map((i) => rows[i]!.id);
    // 202: the ranking is being made in the background; the search goes on without it
    const ranking: BlameRanking | null = r.ok && !("state" in r.data) ? { method: r.data.method, events: r.data.events, agents: r.data.agents } : null;
    if (!r.ok) setError(`no prior ranking (${describeFailure(r)}): plain bisection`);
    else if ("state" in r.data) setError(`no prior ranking yet (${r.data.reason}): plain bisection`);
    setPrior(r.ok && ranking ? { method: r.data.method, note: r.data.chosen?.by ?? "" } : null);
    setAsked(walked);
    setState(startGuided(ids, ranking));
  };

  const answer = (onTrack: boolean) => {
    if (!state || step?.kind !== "question") return;
    try {
      setState(answerQuestion(state, step.k, onTrack, step.purpose));
    } catch (e) {
      setError((e as Error).message);
    }
  };

  // the asked step is selected, so that its content is what the panel shows
  const shown = step?.kind === "question" ? asked[step.k] : step?.kind === "done" ? asked[step.decisive_index] : undefined;
  useEffect(() => {
    if (shown !== undefined) store.getState().setIndex(shown);
  }, [shown, store]);

  useLabelKeys<boolean>(
    (yes, e) => {
      e.preventDefault();
      answer(yes);
    },
    { enabled: step?.kind === "question", actionOf: (e) => (e.ctrlKey || e.metaKey || e.altKey || (e.key !== "y" && e.key !== "n") ? null : e.key === "y") },
  );

  if (!state) {
    return (
      <button type="button" disabled={disabled || !allLoaded} onClick={() => void start()} className="rounded border border-rose-300 px-2 py-1 hover:bg-rose-100 disabled:opacity-50" data-testid="guided-start" title={allLoaded ? "" : "waiting for every event to load"}>
        Find it with questions
      </button>
    );
  }
  const rows = store.getState().rows;
  const asked_n = state.answers.length;
  /** step k of the search as the person reads it, and who acted there */
  const stepOf = (k: number) => stepNumber(asked[k]!, rows[asked[k]!]?.step);
  const agentOf = (k: number) => rows[asked[k]!]?.agent;
  return (
    <div className="mt-2 w-full space-y-1 rounded border border-rose-300 bg-white p-2 dark:bg-transparent" data-testid="guided" data-answers={asked_n} data-budget={state.budget} role="group" aria-label="Guided search for the decisive error">
      <p className="text-xs text-slate-600">
        {prior ? <>prior: <span className="font-mono">{prior.method}</span>{prior.note && ` (${prior.note})`}</> : "plain bisection"} · {counted(asked_n, "answer")} so far, at most {state.budget} over {counted(state.events.length, "step")}
      </p>
      {error && <p className="text-xs text-amber-800">{error}</p>}
      {step?.kind === "question" && (
        <div data-testid="guided-question" data-k={asked[step.k]} data-step={stepOf(step.k)} data-event-id={step.event_id}>
          <p>
            Is the run still on track after step {stepOf(step.k)} (<span className="font-mono">{step.event_id}</span>, {agentOf(step.k)})?{step.purpose === "check" && " (a last check of an earlier answer)"}
          </p>
          <div className="mt-1 flex gap-2">
            <button type="button" onClick={() => answer(true)} className="rounded bg-emerald-700 px-2 py-1 text-emerald-50 hover:bg-emerald-600" data-testid="guided-yes">Yes, on track (y)</button>
            <button type="button" onClick={() => answer(false)} className="rounded bg-rose-700 px-2 py-1 text-rose-50 hover:bg-rose-600" data-testid="guided-no">No, off track (n)</button>
            <button type="button" onClick={() => setState(null)} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100">Stop</button>
          </div>
        </div>
      )}
      {step?.kind === "done" && (
        <div data-testid="guided-done" data-event-id={step.decisive_event_id}>
          <p>
            The run went wrong at step {stepOf(step.decisive_index)} (<span className="font-mono">{step.decisive_event_id}</span>, {agentOf(step.decisive_index)}), found with {counted(step.answers.length, "answer")}.
          </p>
          {step.contradictions.length > 0 && (
            <ul className="text-xs text-amber-800" data-testid="guided-contradictions">
              {step.contradictions.map((c, i) => (
                <li key={i}>contradiction: &ldquo;{c.earlier.on_track ? "on track" : "off track"} after step {stepOf(c.earlier.k)}&rdquo; then &ldquo;{c.later.on_track ? "on track" : "off track"} after step {stepOf(c.later.k)}&rdquo; (the later answer counts)</li>
              ))}
            </ul>
          )}
          <div className="mt-1 flex gap-2">
            <button type="button" disabled={disabled} onClick={() => { onFound(step.decisive_event_id, `found with ${counted(step.answers.length, "guided question")}`); setState(null); }} className="rounded bg-rose-700 px-2 py-1 text-rose-50 hover:bg-rose-600 disabled:opacity-50" data-testid="guided-save">Save as my decisive error</button>
            <button type="button" onClick={() => setState(null)} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100">Discard</button>
          </div>
        </div>
      )}
    </div>
  );
}
