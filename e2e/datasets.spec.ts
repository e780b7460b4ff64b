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
 * the page's links, and read the shard back with DuckDB; choose traces with
 * the trace list's own filter fields, see the live count and the warnings
 * before and after a snapshot that skips traces.
 */
const fixture = JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")) as Record<string, unknown>;

test("take a snapshot, see it finish, download its shard and read it back", async ({ page, request }) => {
  const traceId = `ds-e2e-${runId}`;
  await ingest(request, { ...fixture, trace_id: traceId, group_id: `g-${runId}` });
  const name = `e2e snapshot ${runId}`;

  // the trace list's filters ride in the URL (as its "Snapshot as dataset" link passes them); ids shows as a ticked box
  await page.goto(`/datasets?ids=${traceId}`);
  const form = page.getByTestId("snapshot-form");
  await expect(form.getByTestId("exact-filters")).toContainText("only the 1 traces named by the link");
  await form.locator("[name=name]").fill(name);
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

test("pick system “tau” in the list's filter fields, see the live count change with the method, take a snapshot that skips traces and see why", async ({ page, request }) => {
  // four traces of a tau-bench system, this run's task: two sharing a group (3 model calls each), one with calls and no group, one with neither
  const system = "tau-bench-retail";
  const task = `task-${runId}`;
  await ingest(request, { ...fixture, trace_id: `tau-a-${runId}`, system, task_id: task, group_id: `tau-g-${runId}` });
  await ingest(request, { ...fixture, trace_id: `tau-b-${runId}`, system, task_id: task, group_id: `tau-g-${runId}` });
  await ingest(request, { ...fixture, trace_id: `tau-c-${runId}`, system, task_id: task, group_id: undefined });
  const { calls: _calls, ...noCalls } = fixture;
  await ingest(request, { ...noCalls, trace_id: `tau-d-${runId}`, system, task_id: task, group_id: undefined });

  await page.goto("/datasets");
  const form = page.getByTestId("snapshot-form");
  const preview = form.getByTestId("snapshot-preview");
  // the list's fields: a part of the system's name, in any case, as on the trace list
  await form.getByLabel("System", { exact: true }).fill("TAU");
  await form.getByLabel("Task", { exact: true }).fill(task);
  await form.locator("select[name=form]").selectOption("transitions");
  await form.locator("select[name=method]").selectOption("ccp");
  await expect(preview).toHaveAttribute("data-state", "ready");
  await expect(preview).toContainText("The filter selects 4 traces; a transitions snapshot would hold 9 rows (one per model call) from 3 of them.");
  await expect(form.getByTestId("preview-warning")).toHaveText(["1 trace would be skipped: the transitions form is made of model calls, and this trace has none. Choose the rows form (one row per event) to keep them."]);

  // gigpo compares each trace with its group: the two without one are skipped, said before anything is taken
  await form.locator("select[name=method]").selectOption("gigpo");
  await expect(preview).toContainText("would hold 6 rows (one per model call) from 2 of them.");
  await expect(form.getByTestId("preview-warning")).toHaveText([/^2 traces would be skipped: gigpo compares each trace with its group/]);

  const name = `tau gigpo ${runId}`;
  await form.locator("[name=name]").fill(name);
  await form.locator("select[name=format]").selectOption("jsonl");
  await form.getByRole("button", { name: "Take snapshot" }).click();
  const row = page.getByTestId("dataset-row").filter({ hasText: name });
  await expect(row).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  await expect(row).toContainText("6 rows from 2 traces (2 without a group left out)");
  await expect(row.getByTestId("dataset-warning")).toHaveText([/^2 traces skipped: gigpo compares each trace with its group, and these have no group_id or no other trace in it\./]);
  // the form still shows what the snapshot was taken of
  await expect(form.getByLabel("System", { exact: true })).toHaveValue("TAU");

  // from the trace list: the same filter in its URL, its "Snapshot as dataset" link fills the same fields and counts the same traces
  await page.goto(`/?system_contains=tau&task_contains=${task}`);
  await expect(page.getByTestId("trace-total")).toHaveText("4 traces");
  await page.getByTestId("snapshot-all").click();
  await expect(page).toHaveURL(/\/datasets\?/);
  await expect(form.getByLabel("System", { exact: true })).toHaveValue("tau");
  await expect(preview).toContainText("The filter selects 4 traces");
});

test("a snapshot in a trainer's form (verl) from the page: its prompt as chat messages, Baton's values in extra_info", async ({ page, request }) => {
  const traceId = `ds-e2e-verl-${runId}`;
  await ingest(request, { ...fixture, trace_id: traceId, group_id: `g-verl-${runId}` });
  const name = `e2e verl snapshot ${runId}`;

  await page.goto(`/datasets?ids=${traceId}`);
  const form = page.getByTestId("snapshot-form");
  await form.locator("[name=name]").fill(name);
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
