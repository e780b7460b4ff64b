import { columnsFor, type ParquetColumn } from "./parquet";
import { TRAINER_COLUMNS, type TrainerForm } from "./trainers";

/**
 * The Parquet columns of each tabular export form, in the order of the JSONL
 * keys. Nested values (rewards, prompts, responses, a trace's events) are
 * JSON text columns (Parquet's JSON type: DuckDB reads them as JSON, pandas
 * as text); keys a form gains later become JSON columns of their own
 * (columnsFor), never dropped.
 */

const s = (name: string): ParquetColumn => ({ name, kind: "string" });
const j = (name: string): ParquetColumn => ({ name, kind: "json" });
const d = (name: string): ParquetColumn => ({ name, kind: "double" });

/** Event rows (format=jsonl). */
export const ROW_COLUMNS: readonly ParquetColumn[] = [
  s("uid"), s("group_id"), s("traj_uid"), { name: "step", kind: "int32" }, s("event_id"), s("agent"), s("role"), s("type"), d("t"),
  j("rewards"), d("credit"), d("advantage"), s("method"), s("preset"), s("version"), s("annotations_as_of"), d("tokens"), s("content"),
  { name: "hacking_flags", kind: "string_list" }, { name: "decisive_error", kind: "bool" },
];

/** Transitions (format=transitions). */
export const TRANSITION_COLUMNS: readonly ParquetColumn[] = [
  s("uid"), s("group_id"), s("traj_uid"), { name: "step", kind: "int32" }, s("call_id"), s("agent"), s("role"), s("model"),
  j("prompt"), j("response"), { name: "prompt_token_ids", kind: "int32_list" }, { name: "response_token_ids", kind: "int32_list" },
  d("reward"), d("credit"), d("advantage"), s("anchor_obs"), { name: "hacking_flags", kind: "string_list" },
  s("method"), s("preset"), s("version"), s("annotations_as_of"),
];

/** One row per trace (strict, extended): identifiers as text, everything nested as JSON. */
export const TRACE_COLUMNS: readonly ParquetColumn[] = [
  s("trace_id"), s("task_id"), s("system"), s("topology"), s("group_id"), s("project"), j("metadata"),
  j("events"), j("edges"), j("rewards"), j("costs"), j("metrics"), j("calls"), j("annotations"), j("adjudications"),
  j("decisive_errors"), j("decisive_error_adjudication"), { name: "hacking_flags", kind: "string_list" },
];

export type TabularForm = "rows" | "transitions" | "traces" | TrainerForm;

const KNOWN: Record<TabularForm, readonly ParquetColumn[]> = { rows: ROW_COLUMNS, transitions: TRANSITION_COLUMNS, traces: TRACE_COLUMNS, ...TRAINER_COLUMNS };

/** The columns of a form for rows shaped like `first`; all of the form's columns for traces (their keys are optional) and the trainer forms (a fixed schema, docs/train-with-baton.md). */
export function formColumns(form: TabularForm, first?: object): ParquetColumn[] {
  if (first === undefined || form in TRAINER_COLUMNS) return [...KNOWN[form]];
  if (form === "traces") return [...KNOWN.traces, ...columnsFor(KNOWN.traces, first).filter((c) => !KNOWN.traces.some((k) => k.name === c.name))];
  return columnsFor(KNOWN[form], first);
}
