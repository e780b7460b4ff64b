import { closeSync, openSync, readFileSync, ftruncateSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/** Files the upload page cannot take are refused at once with what to do instead, before a byte is sent. */
test("a file over the body limit, an empty file, a CSV and a binary file are refused before sending, each saying why", async ({ page }) => {
  const big = path.join(tmpdir(), `baton-e2e-big-${process.pid}.json`);
  const fd = openSync(big, "w");
  ftruncateSync(fd, 130 * 1024 * 1024); // 130 MB (sparse), over the default 100 MB
  closeSync(fd);
  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/import")) sent.push(r.url());
  });
  try {
    await page.goto("/upload");
    await expect(page.getByTestId("upload-limit")).toHaveText("100 MB");
    const started = Date.now();
    await page.getByTestId("file-input").setInputFiles(big);
    await expect(page.getByTestId("upload-error")).toContainText(
      `the file is 130 MB, over this server's upload limit of 100 MB (BATON_MAX_BODY_MB); nothing was sent. Load it with npm run ingest -- ${path.basename(big)}`,
    );
    expect(Date.now() - started).toBeLessThan(5000);

    await page.getByTestId("file-input").setInputFiles([
      { name: "empty.json", mimeType: "application/json", buffer: Buffer.alloc(0) },
      { name: "runs.csv", mimeType: "text/csv", buffer: readFileSync("lib/ingest/fixtures/runs.csv") },
      { name: "favicon.ico", mimeType: "image/x-icon", buffer: readFileSync("app/favicon.ico") },
    ]);
    const results = page.getByTestId("upload-result");
    await expect(results).toHaveCount(4);
    await expect(results.filter({ hasText: "empty.json" }).getByTestId("upload-error")).toContainText("empty file: it holds no traces");
    await expect(results.filter({ hasText: "runs.csv" }).getByTestId("upload-error")).toContainText("CSV is not a supported format (supported: JSON or JSONL traces in Baton's schema");
    await expect(results.filter({ hasText: "favicon.ico" }).getByTestId("upload-error")).toContainText("binary file (not text): not a supported format");
    expect(sent).toEqual([]);
  } finally {
    rmSync(big, { force: true });
  }
});

test("a ChatDev run's .log picked on the upload page is stored under the id and task the CLI gives its folder", async ({ page, request }) => {
  const folder = "../shared/data/chatdev_warehouse/Gomoku_THUNLP_20230625201030";
  await request.delete("/api/traces/chatdev-20230625201030");
  await page.goto("/upload");
  await expect(page.getByTestId("file-input")).toHaveAttribute("accept", /(^|,)\.log(,|$)/);
  await page.getByTestId("file-input").setInputFiles(`${folder}/20230625201030.log`);
  await expect(page.getByTestId("upload-ok")).toContainText("chatdev-20230625201030");
  // the id and task the CLI gives the run's folder (scripts/ingest.int.test.ts, lib/adapters/chatdev.test.ts)
  const stored = (await (await request.get("/api/traces/chatdev-20230625201030")).json()) as { metadata: { task: string } };
  expect(stored.metadata.task).toBe("20230625201030");
});
