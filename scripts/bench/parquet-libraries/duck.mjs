import { DuckDBInstance, listValue, INTEGER, LIST } from "@duckdb/node-api";
import fs from "node:fs";
import { rows, STRING_COLS, NUM_COLS } from "./rows.mjs";
const N = Number(process.argv[2] ?? 1000000);
const t0 = performance.now();
const db = await DuckDBInstance.create("./duck.db", { memory_limit: "256MB", threads: "2" });
const c = await db.connect();
await c.run("DROP TABLE IF EXISTS t");
await c.run(`CREATE TABLE t (${STRING_COLS.map((s) => `${s} VARCHAR`).join(", ")}, step INTEGER, ${NUM_COLS.map((s) => `${s} DOUBLE`).join(", ")}, prompt_token_ids INTEGER[])`);
const ap = await c.createAppender("t");
for (const r of rows(N)) {
  for (const s of STRING_COLS) r[s] === null ? ap.appendNull() : ap.appendVarchar(r[s]);
  ap.appendInteger(r.step);
  for (const s of NUM_COLS) ap.appendDouble(r[s]);
  r.prompt_token_ids === null ? ap.appendNull() : ap.appendList(listValue(r.prompt_token_ids), LIST(INTEGER));
  ap.endRow();
}
ap.closeSync();
await c.run("COPY t TO './out-duck.parquet' (FORMAT parquet, ROW_GROUP_SIZE 100000)");
console.log(JSON.stringify({ lib: "@duckdb/node-api (appender + COPY)", ms: Math.round(performance.now() - t0), rssMB: Math.round(process.resourceUsage().maxRSS / 1024), bytes: fs.statSync("./out-duck.parquet").size }));
