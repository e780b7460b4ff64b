import { Field } from "@/components/field";
import { TOPOLOGIES } from "@/lib/trace/types";

/** The decision analytics' filter: a plain GET form, every filter in the URL. */
export function DecisionFilters({ values, facets }: { values: Record<string, string>; facets: { projects: string[]; systems: string[] } }) {
  const input = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";
  const text = (name: string, label: string, width: string, list?: string[]) => (
    <Field label={label}>
      <input name={name} defaultValue={values[name]} className={`${input} ${width}`} {...(list && { list: `decisions-${name}` })} data-testid={`filter-${name}`} />
      {list && <datalist id={`decisions-${name}`}>{list.map((p) => <option key={p} value={p} />)}</datalist>}
    </Field>
  );
  return (
    <form method="get" action="/decisions" className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3" aria-label="Filter the decision analytics">
      {text("project", "Project", "w-32", facets.projects)}
      {text("system", "System", "w-40", facets.systems)}
      {text("task_id", "Task", "w-40")}
      {text("group_id", "Group", "w-48")}
      {text("policy_version", "Checkpoint", "w-32")}
      <Field label="Topology">
        <select name="topology" defaultValue={values.topology ?? ""} className={input}>
          <option value="">any</option>
          {TOPOLOGIES.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </Field>
      <Field label="Uploaded from (UTC)"><input type="date" name="from" defaultValue={values.from} className={input} /></Field>
      <Field label="to (inclusive)"><input type="date" name="to" defaultValue={values.to} className={input} /></Field>
      <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-sm text-white hover:bg-slate-700">Apply</button>
      <a href="/decisions" className="text-sm text-slate-600 hover:underline">Clear</a>
    </form>
  );
}
