import { Field } from "@/components/field";
import { VERDICTS } from "@/lib/api/filters";
import { TOPOLOGIES } from "@/lib/trace/types";

/** The list filters: a plain GET form, so filtering works without JavaScript and every view is a URL. */
export function TraceFilters({ values, facets }: { values: Record<string, string>; facets: { projects: string[]; systems: string[] } }) {
  const input = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";
  return (
    <form method="get" action="/" className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3" aria-label="Filter traces">
      <Field label="Search">
        <input name="q" defaultValue={values.q} placeholder="trace, task, system, group" className={`${input} w-56`} />
      </Field>
      <Field label="Project">
        <input name="project" list="projects" defaultValue={values.project} className={`${input} w-32`} />
        <datalist id="projects">{facets.projects.map((p) => <option key={p} value={p} />)}</datalist>
      </Field>
      <Field label="System">
        <input name="system" list="systems" defaultValue={values.system} className={`${input} w-40`} />
        <datalist id="systems">{facets.systems.map((s) => <option key={s} value={s} />)}</datalist>
      </Field>
      <Field label="Task">
        <input name="task_id" defaultValue={values.task_id} className={`${input} w-40`} />
      </Field>
      <Field label="Group">
        <input name="group_id" defaultValue={values.group_id} className={`${input} w-32`} />
      </Field>
      <Field label="Topology">
        <select name="topology" defaultValue={values.topology ?? ""} className={input}>
          <option value="">any</option>
          {TOPOLOGIES.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </Field>
      <Field label="Stop verdict">
        <select name="verdict" defaultValue={values.verdict ?? ""} className={input}>
          <option value="">any</option>
          {VERDICTS.map((v) => <option key={v} value={v}>{v}</option>)}
        </select>
      </Field>
      <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-sm text-white hover:bg-slate-700">
        Filter
      </button>
      <a href="/" className="text-sm text-slate-600 hover:underline">
        Clear
      </a>
    </form>
  );
}
