import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect } from "vitest";
import { GET as getFile } from "@/app/api/datasets/[id]/files/[...path]/route";
import { GET as getOne } from "@/app/api/datasets/[id]/route";
import { POST as create } from "@/app/api/datasets/route";
import { getRequest, jsonRequest, params } from "./test-http";

/**
 * Dataset snapshots in integration tests: made through the routes and
 * waited for (the real pg-boss worker builds them), their files fetched
 * through the file route and read back with DuckDB, as a trainer's loader
 * would find them after a download.
 */
export interface SnapshotSummary {
  id: number;
  state: string;
  files?: { path: string; sha256: string }[];
}

/** POST /api/datasets with `body`, then the snapshot once ready (a failed one throws). */
export async function snapshot<S extends SnapshotSummary>(body: unknown): Promise<S> {
  const response = await create(jsonRequest("/api/datasets", body), params({}));
  expect(response.status).toBe(202);
  const { dataset } = (await response.json()) as { dataset: S };
  for (let i = 0; i < 300; i++) {
    const now = (await (await getOne(getRequest(`/api/datasets/${dataset.id}`), params({ id: String(dataset.id) }))).json()) as S;
    if (now.state === "ready") return now;
    if (now.state === "failed") throw new Error(`snapshot ${dataset.id} failed`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("snapshot not ready in 30 s");
}

/** One file of a snapshot, as GET /api/datasets/{id}/files/{path} serves it. */
export async function snapshotFile(id: number, name: string): Promise<Buffer> {
  const response = await getFile(getRequest(`/api/datasets/${id}/files/${name}`), { params: Promise.resolve({ id: String(id), path: name.split("/") }) });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** Writes a snapshot's files as a folder (as a download would) and runs `sql` on it with DuckDB; `glob` names its train Parquet files. */
export async function duck(s: SnapshotSummary, sql: (glob: string) => string): Promise<Record<string, unknown>[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "baton-ds-"));
  mkdirSync(path.join(dir, "data"));
  for (const f of s.files!) writeFileSync(path.join(dir, f.path), await snapshotFile(s.id, f.path));
  const connection = await (await DuckDBInstance.create(":memory:")).connect();
  return (await connection.runAndReadAll(sql(path.join(dir, "data/train-*.parquet")))).getRowObjectsJson();
}
