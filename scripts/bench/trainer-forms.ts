/**
 * Trainer forms of tau-bench's gpt-4o airline file (200 runs, 2,454 model calls):
 * rows computed, Parquet encoded, Parquet and JSONL bytes, per form against transitions.
 *
 *     npm run bench:trainer-forms
 */
import { adapt } from "../../lib/adapters/index";
import { prepareTrace } from "../../lib/credit";
import { BUILTIN_PRESETS } from "../../lib/rewards/presets";
import { parquetBuffer, parquetChunks } from "../../lib/export/parquet";
import { formColumns } from "../../lib/export/parquet-forms";
import { transitionRows } from "../../lib/export/transitions";
import { TRAINER_FORMS, trainerRows } from "../../lib/export/trainers";

async function main() {
  const traces = [];
  for await (const t of adapt("taubench", "../shared/data/tau_bench/gpt-4o-airline.json")) traces.push(t);
  const opts = { method: "ccp" as const, preset: BUILTIN_PRESETS.customer_support, normalize: false, annotationsAsOf: null };
  const prepared = traces.map((t) => prepareTrace(t));
  for (const form of ["transitions", ...TRAINER_FORMS] as const) {
    const t0 = performance.now();
    const rows: object[] = traces.flatMap((t, i): object[] => (form === "transitions" ? [...transitionRows(prepared[i]!, t.calls!, opts)] : [...trainerRows(form, prepared[i]!, t.calls!, opts)]));
    const t1 = performance.now();
    const bytes = await parquetBuffer(parquetChunks(rows, formColumns(form, rows[0])));
    const t2 = performance.now();
    const jsonl = rows.reduce<number>((n, r) => n + JSON.stringify(r).length + 1, 0);
    console.log(`${form.padEnd(16)} rows ${String(rows.length).padStart(5)}  rows ${(t1 - t0).toFixed(0).padStart(5)} ms  parquet ${(t2 - t1).toFixed(0).padStart(5)} ms  ${(bytes.length / 1e6).toFixed(2)} MB parquet, ${(jsonl / 1e6).toFixed(2)} MB jsonl`);
  }
}
void main();
