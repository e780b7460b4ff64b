import parquet from "@dsnp/parquetjs";
import fs from "node:fs";
import { rows, STRING_COLS, NUM_COLS } from "./rows.mjs";
const N = Number(process.argv[2] ?? 1000000);
const t0 = performance.now();
const fields = {};
for (const s of STRING_COLS) fields[s] = { type: "UTF8", optional: true, compression: "SNAPPY" };
fields.step = { type: "INT32" };
for (const s of NUM_COLS) fields[s] = { type: "DOUBLE" };
fields.prompt_token_ids = { type: "INT32", repeated: true };
const w = await parquet.ParquetWriter.openFile(new parquet.ParquetSchema(fields), "./out-pj.parquet", { rowGroupSize: 10000 });
for (const r of rows(N)) {
  const o = { ...r, prompt_token_ids: r.prompt_token_ids ?? [] };
  for (const s of STRING_COLS) if (o[s] === null) delete o[s];
  await w.appendRow(o);
}
await w.close();
console.log(JSON.stringify({ lib: "@dsnp/parquetjs", ms: Math.round(performance.now() - t0), rssMB: Math.round(process.resourceUsage().maxRSS / 1024), bytes: fs.statSync("./out-pj.parquet").size }));
