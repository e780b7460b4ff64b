/**
 * `npm run bench:label [-- --sizes 1000,100000 --url http://127.0.0.1:3000]`
 *
 * Opens the label view (/traces/{id}/label) of generated traces in Chromium
 * and prints, per size: the HTML size of the page, time to interactive
 * (navigation start until the first rows and the selected unit's content are
 * drawn and the main thread then stays free of long tasks for 500 ms, as
 * bench:render measures it), the time a key press (→) takes to select the
 * next row and show its content, and the rows in the DOM (virtualised).
 * The smallest size is the baseline: the ratio says how much a big trace
 * costs over a small one. `--tasks` prints each open's long tasks. Without --url it starts its own server like
 * bench:render (embedded PostgreSQL in .baton-bench/label, port 3391).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { chromium, type Browser } from "@playwright/test";
import { syntheticTrace } from "@/lib/demo";
import { fmt } from "./db";
import { LONG_TASK_RECORDER, timeToInteractive } from "./render-measure";
import { startBenchServer } from "./server";

const { values } = parseArgs({ options: { tasks: { type: "boolean", default: false }, sizes: { type: "string", default: "1000,100000" }, url: { type: "string" }, port: { type: "string", default: "3391" } } });
const SIZES = values.sizes.split(",").map(Number);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const READY = `document.querySelector('[data-testid=label-row][data-event-id]') && document.querySelector('[data-testid=unit-context]')`;

interface Row {
  size: number;
  htmlBytes: number;
  coldMs: number;
  interactiveMs: number;
  keyMs: number;
  domRows: number;
}

async function main() {
  const server = values.url ? null : await startServer();
  const base = values.url ?? `http://127.0.0.1:${values.port}`;
  const browser = await chromium.launch({ ...(existsSync(CHROMIUM) && { executablePath: CHROMIUM }), args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  console.log(`bench:label — Chromium ${browser.version()} headless, ${os.cpus().length} CPUs, ${base}`);
  const rows: Row[] = [];
  try {
    for (const size of SIZES) rows.push(await benchSize(browser, base, size));
  } finally {
    await browser.close();
    server?.kill("SIGTERM");
  }
  const baseline = rows[0]!;
  console.log("\n| events | HTML | TTI cold | TTI warm | → selects the next unit | rows in the DOM | TTI ratio vs " + fmt(baseline.size) + " events |");
  console.log("|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) console.log(`| ${fmt(r.size)} | ${fmt(r.htmlBytes / 1024)} KB | ${fmt(r.coldMs)} ms | ${fmt(r.interactiveMs)} ms | ${fmt(r.keyMs)} ms | ${fmt(r.domRows)} | ${fmt(r.interactiveMs / baseline.interactiveMs, 2)}x |`);
}

async function benchSize(browser: Browser, base: string, size: number): Promise<Row> {
  const traceId = `bench-label-${size}`;
  const trace = syntheticTrace({ events: size, seed: 7, traceId });
  const ingest = await fetch(`${base}/api/traces?upsert=1`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(trace) });
  if (ingest.status !== 201) throw new Error(`ingest of ${traceId} failed: ${ingest.status} ${await ingest.text()}`);
  const url = `${base}/traces/${traceId}/label`;
  const htmlBytes = (await (await fetch(url)).arrayBuffer()).byteLength;
  const cold = await measure(browser, url);
  const warm = await measure(browser, url);
  console.log(`${fmt(size)} events: HTML ${fmt(htmlBytes / 1024)} KB; interactive cold ${fmt(cold.interactiveMs)} ms, warm ${fmt(warm.interactiveMs)} ms; → ${fmt(warm.keyMs)} ms; ${warm.domRows} rows in the DOM`);
  return { size, htmlBytes, coldMs: cold.interactiveMs, ...warm };
}

async function measure(browser: Browser, url: string) {
  // bypassCSP: the ready probe is a string Playwright evaluates, which the app's CSP (no unsafe-eval) refuses
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, bypassCSP: true });
  await context.addInitScript(LONG_TASK_RECORDER);
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: "commit" });
    const tti = await timeToInteractive(page, READY, 60_000);
    if (values.tasks) {
      // --tasks: the long tasks (start-end, ms after navigation) behind the figure
      const tasks = await page.evaluate(() => (window as unknown as { __longTasks: [number, number][] }).__longTasks);
      console.log(`  ready at ${fmt(tti.readyMs)} ms; long tasks: ${tasks.map(([a, b]) => `${fmt(a)}-${fmt(b)}`).join(", ") || "none"}`);
    }
    const domRows = await page.locator("[data-testid=label-row]").count();
    const before = await page.locator('[data-testid=label-row][data-selected="true"]').getAttribute("data-event-id");
    const t0 = Date.now();
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(
      (prev) => {
        const sel = document.querySelector('[data-testid=label-row][data-selected="true"]');
        const ctx = document.querySelector("[data-testid=unit-context]");
        return sel && sel.getAttribute("data-event-id") !== prev && ctx?.getAttribute("data-event-id") === sel.getAttribute("data-event-id");
      },
      before,
      { timeout: 30_000 },
    );
    return { interactiveMs: tti.interactiveMs, keyMs: Date.now() - t0, domRows };
  } finally {
    await context.close();
  }
}

function startServer(): Promise<ChildProcess> {
  return startBenchServer(values.port, { BATON_DATA_DIR: ".baton-bench/label", BATON_PG_PORT: process.env.BATON_BENCH_PG_PORT ?? "24335" });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
