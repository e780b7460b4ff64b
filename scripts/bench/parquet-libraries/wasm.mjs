import * as arrow from "apache-arrow";
import * as pw from "parquet-wasm";
import fs from "node:fs";
import { Writable } from "node:stream";
import { rows, STRING_COLS, NUM_COLS } from "./rows.mjs";
const N = Number(process.argv[2] ?? 1000000), G = Number(process.argv[3] ?? 10000);
const t0 = performance.now();
const it = rows(N);
function nextBatch() {
  const batch = [];
  for (let k = 0; k < G; k++) { const n = it.next(); if (n.done) break; batch.push(n.value); }
  if (!batch.length) return null;
  const cols = {};
  for (const c of STRING_COLS) cols[c] = arrow.vectorFromArray(batch.map((r) => r[c]), new arrow.Utf8());
  cols.step = arrow.vectorFromArray(batch.map((r) => r.step), new arrow.Int32());
  for (const c of NUM_COLS) cols[c] = arrow.vectorFromArray(batch.map((r) => r[c]), new arrow.Float64());
  cols.prompt_token_ids = arrow.vectorFromArray(batch.map((r) => r.prompt_token_ids), new arrow.List(new arrow.Field("element", new arrow.Int32(), false)));
  const table = new arrow.Table(cols);
  const wasmTable = pw.Table.fromIPCStream(arrow.tableToIPC(table, "stream"));
  return wasmTable.recordBatches();
}
let pending = [];
const source = new ReadableStream({ pull(controller) {
  if (!pending.length) { const b = nextBatch(); if (!b) return controller.close(); pending = b; }
  controller.enqueue(pending.shift());
} });
const out = await pw.transformParquetStream(source);
await out.pipeTo(Writable.toWeb(fs.createWriteStream("./out-wasm.parquet")));
console.log(JSON.stringify({ lib: "parquet-wasm+apache-arrow", ms: Math.round(performance.now() - t0), rssMB: Math.round(process.resourceUsage().maxRSS / 1024), bytes: fs.statSync("./out-wasm.parquet").size }));
