import { Field } from "@/components/field";
import { TOPOLOGIES } from "@/lib/trace/types";

/** The dashboard's filter: a plain GET form (works without JavaScript; every filter is in the URL). */
export function DashboardFilters({ values, facets }: { values: Record<string, string>; facets: { projects: string[]; systems: string[] } }) {
  const input = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";
  return (
    <form method="get" action="/dashboard" className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3" aria-label="Filter the dashboard" data-testid="dashboard-filters">
      <Field label="Project">
        <input name="project" list="dashboard-projects" defaultValue={values.project} className={`${input} w-32`} />
        <datalist id="dashboard-projects">{facets.projects.map((p) => <option key={p} value={p} />)}</datalist>
      </Field>
      <Field label="System">
        <input name="system" list="dashboard-systems" defaultValue={values.system} className={`${input} w-40`} />
        <datalist id="dashboard-systems">{facets.systems.map((s) => <option key={s} value={s} />)}</datalist>
      </Field>
      <Field label="Task">
        <input name="task_id" defaultValue={values.task_id} className={`${input} w-40`} />
      </Field>
      <Field label="Group">
        <input name="group_id" defaultValue={values.group_id} className={`${input} w-48`} data-testid="filter-group" />
      </Field>
      <Field label="Topology">
        <select name="topology" defaultValue={values.topology ?? ""} className={input}>
          <option value="">any</option>
          {TOPOLOGIES.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </Field>
      <Field label="Uploaded from (UTC)">
        <input type="date" name="from" defaultValue={values.from} className={input} data-testid="filter-from" />
      </Field>
      <Field label="to (inclusive)">
        <input type="date" name="to" defaultValue={values.to} className={input} data-testid="filter-to" />
      </Field>
      {values.trend && <input type="hidden" name="trend" value={values.trend} />}
      <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-sm text-white hover:bg-slate-700">Apply</button>
      <a href="/dashboard" className="text-sm text-slate-600 hover:underline">Clear</a>
    </form>
  );
}
