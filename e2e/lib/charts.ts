import { readFileSync } from "node:fs";
import { expect, type APIRequestContext, type Download, type Locator, type Page } from "@playwright/test";

/** Helpers shared by the heatmap and dashboard specs. */
export const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
export const runId = `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;

export async function ingest(request: APIRequestContext, trace: unknown): Promise<void> {
  const response = await request.post("/api/traces", { data: trace });
  expect(response.status(), await response.text()).toBe(201);
}

export type Matrix = (number | null)[][];

/** The cell values a drawn heatmap carries (data-value), as a rows x columns matrix. */
export async function drawnCells(panel: Locator): Promise<Matrix> {
  const cells = await panel.locator("[data-testid=heatmap-cell]").evaluateAll((rects) =>
    rects.map((r) => [Number(r.getAttribute("data-row")), Number(r.getAttribute("data-col")), r.getAttribute("data-value")] as const),
  );
  const matrix: Matrix = [];
  for (const [row, col, value] of cells) (matrix[row] ??= [])[col] = value === "null" ? null : Number(value);
  return matrix;
}

/** The same matrix from the API's model. */
export async function apiCells(request: APIRequestContext, url: string): Promise<{ matrix: Matrix; model: { rows: { key: string }[]; columns: { key: string }[] } }> {
  const response = await request.get(url);
  expect(response.status(), await response.text()).toBe(200);
  const model = (await response.json()) as { rows: { key: string }[]; columns: { key: string }[]; cells: { value: number | null }[][] };
  return { matrix: model.cells.map((r) => r.map((c) => c.value)), model };
}

export function panel(page: Page, index = 0): Locator {
  return page.locator(`[data-testid=heatmap-panel][data-panel="${index}"]`);
}

export async function downloadOf(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  const path = await download.path();
  return { download, bytes: readFileSync(path) };
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** True when the text parses as an SVG document (checked by the browser's XML parser). */
export async function parsesAsSvg(page: Page, text: string): Promise<{ ok: boolean; root: string; texts: string[] }> {
  return page.evaluate((svg) => {
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    return {
      ok: doc.getElementsByTagName("parsererror").length === 0,
      root: doc.documentElement.nodeName,
      texts: Array.from(doc.getElementsByTagName("text")).map((t) => t.textContent ?? ""),
    };
  }, text);
}
