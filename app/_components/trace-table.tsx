import Link from "next/link";
import { groupHref } from "@/lib/decisions/query";
import { E1Badge } from "@/components/e1-badge";
import type { ListSort } from "@/lib/api/filters";
import { formatCost, formatDuration, formatTokens } from "@/lib/format";
import { DETECTOR_LABELS, isTraceDetector } from "@/lib/hacking";
import type { TraceHits } from "@/lib/server/queries/search-snippets";
import type { TraceListItem } from "@/lib/server/queries/traces";
import { SearchHits } from "./search-hits";
import { AllCheckbox, RowCheckbox } from "./selection";

interface Column {
  label: string;
  sort?: ListSort;
  numeric?: boolean;
}

const COLUMNS: Column[] = [
  { label: "Trace" },
  { label: "Project" },
  { label: "System" },
  { label: "Task" },
  { label: "Group" },
  { label: "Events", sort: "events", numeric: true },
  { label: "Tokens", sort: "tokens", numeric: true },
  { label: "Cost", sort: "cost", numeric: true },
  { label: "Duration", sort: "duration", numeric: true },
  { label: "Agents", sort: "agents", numeric: true },
  { label: "Errors", sort: "errors", numeric: true },
  { label: "E1", sort: "e1" },
  { label: "Created", sort: "created" },
];

interface Props {
  traces: TraceListItem[];
  /** the list's URL parameters (filters and order), for the sort links */
  values: Record<string, string>;
  sort: ListSort;
  dir: "asc" | "desc";
  /** trace ids whose spans are arriving again over OTLP (the stored row is an earlier version) */
  receiving?: ReadonlySet<string>;
  hits?: ReadonlyMap<number, TraceHits>;
  terms?: readonly string[];
}

export function TraceTable({ traces, values, sort, dir, receiving = new Set(), hits = new Map(), terms = [] }: Props) {
  if (traces.length === 0) return <p className="rounded border border-dashed border-slate-300 p-6 text-center text-slate-600">No traces match.</p>;
  return (
    <div className="overflow-x-auto rounded border border-slate-200 bg-white">
      <table className="w-full text-sm" data-testid="trace-table">
        <thead className="bg-slate-100 text-left text-xs uppercase tracking-wide text-slate-700">
          <tr>
            <th className="px-2 py-2"><AllCheckbox traceIds={traces.map((t) => t.trace_id)} /></th>
            {COLUMNS.map((c) => (
              <th key={c.label} className={`px-3 py-2 font-medium ${c.numeric ? "text-right" : ""}`} aria-sort={c.sort === sort ? (dir === "asc" ? "ascending" : "descending") : undefined}>
                {c.sort ? <SortLink column={c.sort} label={c.label} values={values} sort={sort} dir={dir} /> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {traces.map((t) => (
            <Row key={t.id} t={t} receiving={receiving.has(t.trace_id)} hits={hits.get(t.id)} terms={terms} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Ids of any length wrap inside their column (shown whole, never pushing the
 * other columns out of view), at their hyphens (a word is cut only when it
 * alone is wider than the column).
 */
const ID_CELL = "min-w-[8rem] max-w-[16rem] break-words";

function Row({ t, receiving, hits, terms }: { t: TraceListItem; receiving: boolean; hits: TraceHits | undefined; terms: readonly string[] }) {
  const num = "px-3 py-2 text-right tabular-nums";
  return (
    <>
      <tr className="border-t border-slate-100 hover:bg-slate-50" data-testid="trace-row">
        <td className="px-2 py-2"><RowCheckbox traceId={t.trace_id} /></td>
        <td className={`${ID_CELL} px-3 py-2 font-mono text-xs`}>
          <Link href={`/traces/${encodeURIComponent(t.trace_id)}`} className="text-blue-700 hover:underline" data-testid="trace-link">
            {t.trace_id}
          </Link>
          {t.flags.filter(isTraceDetector).map((f) => (
            <span key={f} className="ml-2 rounded bg-rose-100 px-1.5 py-0.5 font-sans text-xs text-rose-800" title={DETECTOR_LABELS[f].explain} data-testid="row-flag">{DETECTOR_LABELS[f].name}</span>
          ))}
          {receiving && <span className="ml-2 rounded bg-sky-100 px-1.5 py-0.5 font-sans text-xs text-sky-800" title="more spans are arriving; this is an earlier version">receiving</span>}
        </td>
        <td className="px-3 py-2">{t.project}</td>
        <td className="px-3 py-2">{t.system ?? "—"}</td>
        <td className={`${ID_CELL} px-3 py-2 font-mono text-xs`} data-testid="row-task-id">{t.task_id}</td>
        <td className={`${ID_CELL} px-3 py-2 font-mono text-xs`}>{t.group_id === null ? "—" : <Link href={groupHref(t.group_id)} className="text-blue-700 hover:underline" data-testid="group-link">{t.group_id}</Link>}</td>
        <td className={num}>{t.events.toLocaleString("en")}</td>
        <td className={num}>{formatTokens(t.tokens)}</td>
        <td className={num}>{formatCost(t.cost)}</td>
        <td className={num} title={t.clock === "steps" ? "makespan in steps (this source has no timestamps)" : "makespan"}>{formatDuration(t.duration, t.clock)}</td>
        <td className={num}>{t.agents ?? "—"}</td>
        <td className={`${num} ${t.errors ? "text-rose-800" : ""}`}>{t.errors ?? "—"}</td>
        <td className="px-3 py-2"><E1Badge value={t.e1} /></td>
        <td className="whitespace-nowrap px-3 py-2 text-xs text-slate-600">{t.created_at.replace("T", " ").slice(0, 16)}</td>
      </tr>
      {hits && (
        <tr className="border-t-0">
          <td />
          <td colSpan={COLUMNS.length} className="px-3 pb-2">
            <SearchHits traceId={t.trace_id} hits={hits} terms={terms} />
          </td>
        </tr>
      )}
    </>
  );
}

/** A column header that sorts by it: first click descending (most first), again ascending; paging starts over. */
function SortLink({ column, label, values, sort, dir }: { column: ListSort; label: string; values: Record<string, string>; sort: ListSort; dir: "asc" | "desc" }) {
  const params = new URLSearchParams(values);
  params.delete("cursor");
  params.delete("before");
  const next = column === sort && dir === "desc" ? "asc" : "desc";
  params.set("sort", column);
  params.set("dir", next);
  const arrow = column === sort ? (dir === "asc" ? " ↑" : " ↓") : "";
  return (
    <Link href={`/?${params.toString()}`} className="hover:underline" data-testid={`sort-${column}`}>
      {label}{arrow}
    </Link>
  );
}
