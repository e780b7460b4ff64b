import { ParquetWriter, ByteWriter } from "hyparquet-writer";
import fs from "node:fs";
import { rows, STRING_COLS, NUM_COLS } from "./rows.mjs";
const N = Number(process.argv[2] ?? 1000000), G = Number(process.argv[3] ?? 50000);
const fd = fs.openSync("./out-hy.parquet", "w");
const writer = new ByteWriter(1 << 20);
writer.flush = () => { fs.writeSync(fd, new Uint8Array(writer.buffer, 0, writer.index)); writer.index = 0; };
writer.finish = () => writer.flush();
const opt = (name, type, extra = {}) => ({ name, type, repetition_type: "OPTIONAL", ...extra });
const schema = [
  { name: "root", num_children: STRING_COLS.length + NUM_COLS.length + 2 },
  ...STRING_COLS.map((c) => opt(c, "BYTE_ARRAY", { converted_type: "UTF8" })),
  { name: "step", type: "INT32", repetition_type: "REQUIRED" },
  ...NUM_COLS.map((c) => ({ name: c, type: "DOUBLE", repetition_type: "REQUIRED" })),
  { name: "prompt_token_ids", repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", type: "INT32", repetition_type: "REQUIRED" },
];
const pw = new ParquetWriter({ writer, schema });
const t0 = performance.now();
let batch = [];
const flush = () => {
  const columnData = [...STRING_COLS.map((c) => ({ name: c, data: batch.map((r) => r[c]) })), { name: "step", data: Int32Array.from(batch, (r) => r.step) }, ...NUM_COLS.map((c) => ({ name: c, data: Float64Array.from(batch, (r) => r[c]) })), { name: "prompt_token_ids", data: batch.map((r) => r.prompt_token_ids) }];
  pw.write({ columnData, rowGroupSize: batch.length });
  batch = [];
};
for (const r of rows(N)) { batch.push(r); if (batch.length === G) flush(); }
if (batch.length) flush();
pw.finish(); fs.closeSync(fd);
console.log(JSON.stringify({ lib: "hyparquet-writer", ms: Math.round(performance.now() - t0), rssMB: Math.round(process.resourceUsage().maxRSS / 1024), bytes: fs.statSync("./out-hy.parquet").size }));
