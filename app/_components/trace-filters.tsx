import { Field } from "@/components/field";
import { VERDICTS } from "@/lib/api/filters";
import { DETECTOR_LABELS, TRACE_DETECTORS } from "@/lib/hacking";
import { EVENT_TYPES, TOPOLOGIES } from "@/lib/trace/types";

export interface Facets {
  projects: string[];
  systems: string[];
  tasks: string[];
  groups: string[];
}

const input = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";
/** Whole-value filters a URL may hold (a link from a chart, a group page, a snapshot): shown as ticked boxes, kept on the next filter */
const EXACT = [["system", "System"], ["task_id", "Task"], ["group_id", "Group"], ["ids", "Traces"]] as const;
const MORE = ["event_type", "agent", "tool", "status", "tainted", "e1", "replay", "from", "to", "tokens_min", "tokens_max", "cost_min", "cost_max"];

/**
 * The list filters: a plain GET form, so filtering works without JavaScript
 * and every view is a URL. The sort order rides along in hidden fields.
 */
export function TraceFilters({ values, facets }: { values: Record<string, string>; facets: Facets }) {
  return (
    <form method="get" action="/" className="space-y-3 rounded border border-slate-200 bg-white p-3" aria-label="Filter traces">
      {values.sort && <input type="hidden" name="sort" value={values.sort} />}
      {values.dir && <input type="hidden" name="dir" value={values.dir} />}
      <TraceFilterFields values={values} facets={facets} />
      <div className="flex items-center gap-3">
        <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-sm text-white hover:bg-slate-700">
          Filter
        </button>
        <a href="/" className="text-sm text-slate-600 hover:underline">
          Clear
        </a>
      </div>
    </form>
  );
}

/**
 * The list's filter fields, without their form: the trace list's GET form
 * and the Datasets page's snapshot form draw the same fields, so the same
 * keys, partial matches and labels choose the same traces in both. No hooks:
 * drawn on the server or in a client component alike.
 */
export function TraceFilterFields({ values, facets }: { values: Record<string, string>; facets: Facets }) {
  const moreOpen = MORE.some((k) => values[k] !== undefined);
  return (
    <>
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Search content">
          <input name="text" type="search" defaultValue={values.text} placeholder='words, or "a phrase"' title="what agents said, tool results, agent and tool names, metadata: every word must occur; whole words and phrases rank first" className={`${input} w-72 placeholder:text-slate-500`} />
        </Field>
        <Field label="Search">
          <input name="q" defaultValue={values.q} placeholder="trace, task, system, group" className={`${input} w-48 placeholder:text-slate-500`} />
        </Field>
        <Field label="Project">
          <input name="project" list="projects" defaultValue={values.project} className={`${input} w-32`} />
          <datalist id="projects">{facets.projects.map((p) => <option key={p} value={p} />)}</datalist>
        </Field>
        <Field label="System">
          <input name="system_contains" list="systems" defaultValue={values.system_contains} placeholder="part of a name" title="traces whose system contains this (any case)" className={`${input} w-40 placeholder:text-slate-500`} />
          <datalist id="systems">{facets.systems.map((s) => <option key={s} value={s} />)}</datalist>
        </Field>
        <Field label="Task">
          <input name="task_contains" list="tasks" defaultValue={values.task_contains} placeholder="part of a name" title="traces whose task contains this (any case)" className={`${input} w-40 placeholder:text-slate-500`} />
          <datalist id="tasks">{facets.tasks.map((s) => <option key={s} value={s} />)}</datalist>
        </Field>
        <Field label="Group">
          <input name="group_contains" list="groups" defaultValue={values.group_contains} placeholder="part of a name" title="traces whose group contains this (any case)" className={`${input} w-32 placeholder:text-slate-500`} />
          <datalist id="groups">{facets.groups.map((s) => <option key={s} value={s} />)}</datalist>
        </Field>
        <Field label="Topology">
          <Select name="topology" value={values.topology} options={TOPOLOGIES} />
        </Field>
        <Field label="Stop verdict">
          <Select name="verdict" value={values.verdict} options={VERDICTS} />
        </Field>
        <Field label="Hacking flag">
          <Select name="flag" value={values.flag} options={TRACE_DETECTORS} labels={Object.fromEntries(TRACE_DETECTORS.map((d) => [d, DETECTOR_LABELS[d].name]))} />
        </Field>
      </div>
      {EXACT.some(([key]) => values[key] !== undefined) && (
        <div className="flex flex-wrap gap-4 text-sm text-slate-700" data-testid="exact-filters">
          {EXACT.filter(([key]) => values[key] !== undefined).map(([key, label]) => (
            <label key={key} className="flex items-center gap-1" title="a filter of the URL the boxes above do not show: untick it to drop it">
              <input type="checkbox" name={key} value={values[key]} defaultChecked />{" "}
              {key === "ids" ? `only the ${values.ids!.split(",").filter((x) => x.trim()).length} traces named by the link` : `${label} is exactly “${values[key]}”`}
            </label>
          ))}
        </div>
      )}
      <details open={moreOpen} className="text-sm">
        <summary className="cursor-pointer text-slate-700">More filters: events, E1, dates, tokens, cost</summary>
        <div className="mt-2 flex flex-wrap items-end gap-3">
          <Field label="Has event type">
            <Select name="event_type" value={values.event_type} options={EVENT_TYPES} />
          </Field>
          <Field label="Has agent">
            <input name="agent" defaultValue={values.agent} className={`${input} w-32`} />
          </Field>
          <Field label="Has tool">
            <input name="tool" defaultValue={values.tool} className={`${input} w-32`} />
          </Field>
          <Field label="Errors">
            <Select name="status" value={values.status} options={["error"]} labels={{ error: "with an error event" }} />
          </Field>
          <Field label="Tainted">
            <Select name="tainted" value={values.tainted} options={["1", "0"]} labels={{ "1": "some event tainted", "0": "none tainted" }} />
          </Field>
          <Field label="E1">
            <Select name="e1" value={values.e1} options={["1", "0", "none"]} labels={{ "1": "success", "0": "failure", none: "unknown" }} />
          </Field>
          <Field label="Replays">
            <Select name="replay" value={values.replay} options={["0", "1"]} labels={{ "0": "leave out replays and forks", "1": "only replays and forks" }} />
          </Field>
          <Field label="Created from">
            <input type="date" name="from" defaultValue={values.from} className={input} />
          </Field>
          <Field label="Created to">
            <input type="date" name="to" defaultValue={values.to} className={input} />
          </Field>
          <Field label="Tokens ≥">
            <input name="tokens_min" inputMode="decimal" defaultValue={values.tokens_min} className={`${input} w-24`} />
          </Field>
          <Field label="Tokens ≤">
            <input name="tokens_max" inputMode="decimal" defaultValue={values.tokens_max} className={`${input} w-24`} />
          </Field>
          <Field label="Cost ≥ (USD)">
            <input name="cost_min" inputMode="decimal" defaultValue={values.cost_min} className={`${input} w-24`} />
          </Field>
          <Field label="Cost ≤ (USD)">
            <input name="cost_max" inputMode="decimal" defaultValue={values.cost_max} className={`${input} w-24`} />
          </Field>
        </div>
      </details>
    </>
  );
}

function Select({ name, value, options, labels = {} }: { name: string; value: string | undefined; options: readonly string[]; labels?: Record<string, string> }) {
  return (
    <select name={name} defaultValue={value ?? ""} className={input}>
      <option value="">any</option>
      {options.map((o) => <option key={o} value={o}>{labels[o] ?? o}</option>)}
    </select>
  );
}
