import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect, test } from "@playwright/test";
import { downloadOf, ingest, runId } from "./lib/charts";

/**
 * The Datasets page in Chromium: take a snapshot of one trace with model
 * calls, watch it finish, download its Parquet shard and manifest through
 * the page's links, and read the shard back with DuckDB.
 */
const fixture = JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")) as Record<string, unknown>;

test("take a snapshot, see it finish, download its shard and read it back", async ({ page, request }) => {
  const traceId = `ds-e2e-${runId}`;
  await ingest(request, { ...fixture, trace_id: traceId, group_id: `g-${runId}` });
  const name = `e2e snapshot ${runId}`;

  await page.goto("/datasets");
  const form = page.getByTestId("snapshot-form");
  await form.locator("[name=name]").fill(name);
  await form.locator("[name=filter]").fill(`ids=${traceId}`);
  await form.locator("select[name=form]").selectOption("transitions");
  await form.locator("select[name=format]").selectOption("parquet");
  await form.locator("select[name=method]").selectOption("ccp");
  await form.locator("[name=preset]").fill("code_generation");
  await form.getByRole("button", { name: "Take snapshot" }).click();

  const row = page.getByTestId("dataset-row").filter({ hasText: name });
  // queued or building first, then ready (the page refreshes itself while a build runs)
  await expect(row).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  await expect(row).toContainText("3 rows from 1 traces");

  const shardName = "data/train-00000-of-00001.parquet";
  const shard = await downloadOf(page, () => row.getByRole("link", { name: shardName }).click());
  expect(shard.download.suggestedFilename()).toContain("train-00000-of-00001.parquet");
  const manifestFile = await downloadOf(page, () => row.getByRole("link", { name: "manifest.json" }).click());
  const manifest = JSON.parse(manifestFile.bytes.toString("utf8")) as { counts: { rows: number }; files: { path: string; sha256: string; rows: number }[] };
  expect(manifest.counts.rows).toBe(3);
  expect(manifest.files).toEqual([expect.objectContaining({ path: shardName, rows: 3, sha256: createHash("sha256").update(shard.bytes).digest("hex") })]);

  const dir = mkdtempSync(path.join(tmpdir(), "baton-e2e-ds-"));
  const file = path.join(dir, "train.parquet");
  writeFileSync(file, shard.bytes);
  const db = await DuckDBInstance.create(":memory:");
  const reader = await (await db.connect()).runAndReadAll(`SELECT traj_uid, call_id, prompt IS NOT NULL AS has_prompt, response IS NOT NULL AS has_response, round(credit, 9) AS credit FROM read_parquet('${file}') ORDER BY step`);
  const rows = reader.getRowObjectsJson();
  // ccp under code_generation, hand-computed for this trace (lib/server/datasets/datasets.int.test.ts)
  expect(rows.map((r) => [r.traj_uid, r.has_prompt, r.has_response, Number(r.credit)])).toEqual([
    [traceId, true, true, -0.834],
    [traceId, true, true, -0.503],
    [traceId, true, true, -0.906],
  ]);
});

test("a snapshot in a trainer's form (verl) from the page: its prompt as chat messages, Baton's values in extra_info", async ({ page, request }) => {
  const traceId = `ds-e2e-verl-${runId}`;
  await ingest(request, { ...fixture, trace_id: traceId, group_id: `g-verl-${runId}` });
  const name = `e2e verl snapshot ${runId}`;

  await page.goto("/datasets");
  const form = page.getByTestId("snapshot-form");
  await form.locator("[name=name]").fill(name);
  await form.locator("[name=filter]").fill(`ids=${traceId}`);
  await form.locator("select[name=form]").selectOption("verl");
  await form.locator("select[name=method]").selectOption("ccp");
  await form.locator("[name=preset]").fill("code_generation");
  await form.getByRole("button", { name: "Take snapshot" }).click();

  const row = page.getByTestId("dataset-row").filter({ hasText: name });
  await expect(row).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  const shard = await downloadOf(page, () => row.getByRole("link", { name: "data/train-00000-of-00001.parquet" }).click());
  const file = path.join(mkdtempSync(path.join(tmpdir(), "baton-e2e-verl-")), "train.parquet");
  writeFileSync(file, shard.bytes);
  const reader = await (await (await DuckDBInstance.create(":memory:")).connect()).runAndReadAll(
    `SELECT data_source, len(prompt) AS messages, prompt[1].role AS first_role, extra_info.call_id AS call_id, round(extra_info.credit, 9) AS credit FROM read_parquet('${file}') ORDER BY extra_info.index`,
  );
  // the fixture's calls in call order: c1 (a user message), c2 (a user message), c3 (a system and a tool message)
  expect(reader.getRowObjectsJson().map((r) => [r.data_source, Number(r.messages), r.first_role, r.call_id, Number(r.credit)])).toEqual([
    ["baton", 1, "user", "c1", -0.834],
    ["baton", 1, "user", "c2", -0.503],
    ["baton", 2, "system", "c3", -0.906],
  ]);
});
