"use client";

import { Field } from "@/components/field";
import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { FAMILY_LABELS } from "@/lib/heatmap/labels";
import { CREDIT_METHOD_OPTIONS } from "@/lib/graph-view/view-state";
import { FAMILIES } from "@/lib/trace/types";

interface Props {
  /** "trace": one trace's kinds, buckets and comparisons; "across": the role x family filter. */
  scope: "trace" | "across";
  /** The current URL parameters (every control reads its value here: the URL is the state). */
  values: Record<string, string>;
  presets: string[];
  /** Traces of the same group, for `other=`. */
  groupTraces?: string[];
}

const input = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";

/**
 * The method / preset / normalize / weights switcher (and, per scope, kind,
 * bucket count, comparison or trace filter). A change navigates to the URL
 * of the new state; empty fields are left out of it.
 */
export function HeatmapControls({ scope, values, presets, groupTraces = [] }: Props) {
  const router = useRouter();
  const apply = (form: HTMLFormElement) => {
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (typeof value === "string" && value.trim() !== "") params.set(key, value.trim());
    router.push(`?${params.toString()}`);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    apply(event.currentTarget);
  };
  const auto = (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) => apply(event.currentTarget.form!);
  // typed numbers apply on Enter or when the field is left, not at each keystroke (which would reload mid-number)
  const autoIfChanged = (event: { currentTarget: HTMLInputElement }) => {
    if (event.currentTarget.value !== event.currentTarget.defaultValue) apply(event.currentTarget.form!);
  };
  const method = values.method ?? "ccp";
  return (
    // keyed by the URL state so every field shows the new URL's value (defaultValue); the key sits on the
    // form, inside this client component: a key on the component itself, set in the server page, left
    // the old controls in the page beside the new ones after a client navigation
    <form key={JSON.stringify(values)} onSubmit={onSubmit} className="hide-when-presenting flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3" aria-label="Heatmap settings" data-testid="heatmap-controls">
      {scope === "trace" ? (
        <>
          <Field label="Heatmap">
            <select name="kind" defaultValue={values.kind ?? "agent-time"} onChange={auto} className={input} data-testid="control-kind">
              <option value="agent-time">agent × time</option>
              <option value="event-family">event × family</option>
            </select>
          </Field>
          {(values.kind ?? "agent-time") === "agent-time" && (
            <Field label="Time buckets">
              <input name="buckets" type="number" min={1} max={200} defaultValue={values.buckets ?? "12"} onBlur={autoIfChanged} className={`${input} w-20`} data-testid="control-buckets" />
            </Field>
          )}
        </>
      ) : (
        <>
          {(["project", "system", "task_id", "group_id"] as const).map((name) => (
            <Field key={name} label={name === "task_id" ? "Task" : name === "group_id" ? "Group" : name[0]!.toUpperCase() + name.slice(1)}>
              <input name={name} defaultValue={values[name]} className={`${input} w-40`} data-testid={`control-${name}`} />
            </Field>
          ))}
          <Field label="Max traces">
            <input name="max_traces" type="number" min={1} max={1000} defaultValue={values.max_traces} placeholder="200" className={`${input} w-24`} />
          </Field>
        </>
      )}
      <Field label="Method">
        <select name="method" defaultValue={method} onChange={auto} className={input} data-testid="control-method">
          {CREDIT_METHOD_OPTIONS.map((m) => <option key={m} value={m}>{m}</option>)}
        </select>
      </Field>
      <Field label="Preset">
        <select name="preset" defaultValue={values.preset ?? "uniform"} onChange={auto} className={input} data-testid="control-preset">
          {presets.map((p) => <option key={p} value={p}>{p}</option>)}
        </select>
      </Field>
      <label className="flex items-center gap-1.5 pb-1.5 text-sm">
        <input type="checkbox" name="normalize" value="1" defaultChecked={values.normalize === "1"} onChange={auto} disabled={method !== "ccp"} data-testid="control-normalize" />
        normalize
      </label>
      {/* judges' values where no person labelled (SPEC.md section 5); the pages read judges= with the other credit settings */}
      <label className="flex items-center gap-1.5 pb-1.5 text-sm">
        <input type="checkbox" name="judges" value="all" defaultChecked={values.judges === "all"} onChange={auto} data-testid="control-judges" />
        with judges
      </label>
      <Field label="Compare with method">
        <select name="compare" defaultValue={values.compare ?? ""} onChange={auto} className={input} data-testid="control-compare">
          <option value="">none</option>
          {CREDIT_METHOD_OPTIONS.map((m) => <option key={m} value={m}>{m}</option>)}
        </select>
      </Field>
      {scope === "trace" && groupTraces.length > 0 && (
        <Field label="…or with a trace of its group">
          <select name="other" defaultValue={values.other ?? ""} onChange={auto} className={`${input} max-w-60`} data-testid="control-other">
            <option value="">none</option>
            {groupTraces.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </Field>
      )}
      <details className="text-sm">
        <summary className="cursor-pointer pb-1.5 text-slate-700">Weights</summary>
        <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
          {FAMILIES.map((f) => (
            <Field key={f} label={FAMILY_LABELS[f]}>
              <input name={`w.${f}`} type="number" step="any" defaultValue={values[`w.${f}`]} placeholder="preset" onBlur={autoIfChanged} className={`${input} w-24`} data-testid={`control-w-${f}`} />
            </Field>
          ))}
        </div>
      </details>
      <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-sm text-white hover:bg-slate-700">Apply</button>
    </form>
  );
}
