import { readFileSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { downloadOf, example, ingest, runId } from "./lib/charts";
import { e2eDistDir } from "./lib/dist-dir";

/**
 * Pictures for slides: the graph's SVG and PNG export,
 * and the graph slide in presentation mode, in a real Chromium.
 */
const EXAMPLE_ID = `e2e-slides-example-${runId}`;
const HOSTILE_ID = `e2e-slides-hostile-${runId}`;
const HOSTILE_AGENT = `</text><script>window.__pwned = 1</script>"q" 'q' & ]]>`;
const HOSTILE_TASK = `]]><![CDATA[ <foreignObject> \u0007bell`;
/** A demo trace with a stop decision and four agents (lib/demo). */
const DEMO = "demo-research-na-ion-vs-lfp";

test.beforeAll(async ({ request }) => {
  await ingest(request, { ...example, trace_id: EXAMPLE_ID });
  const events = (example.events as Record<string, unknown>[]).map((e) => (e.agent === "planner_1" ? { ...e, agent: HOSTILE_AGENT } : e));
  await ingest(request, { ...example, trace_id: HOSTILE_ID, task_id: HOSTILE_TASK, events });
});

async function openGraph(page: Page, traceId: string, query = "") {
  await page.goto(`/traces/${encodeURIComponent(traceId)}/graph${query}`);
  await expect(page.getByTestId("graph-canvas")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
}

interface Parsed {
  ok: boolean;
  root: string;
  width: number;
  height: number;
  foreign: number;
  scripts: number;
  html: number;
  texts: string[];
  lanes: string[];
  legend: Record<string, string[]>;
}

/** Parses the SVG with the browser's XML parser and reads what a slide tool would find in it. */
function parseSvg(page: Page, svg: string): Promise<Parsed> {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const root = doc.documentElement;
    const legend: Record<string, string[]> = {};
    for (const g of Array.from(doc.querySelectorAll("[data-legend]"))) (legend[g.getAttribute("data-legend")!] ??= []).push(g.querySelector("text")?.textContent ?? "");
    return {
      ok: doc.getElementsByTagName("parsererror").length === 0,
      root: root.nodeName,
      width: Number(root.getAttribute("width")),
      height: Number(root.getAttribute("height")),
      foreign: doc.getElementsByTagNameNS("*", "foreignObject").length,
      scripts: doc.getElementsByTagNameNS("*", "script").length,
      html: doc.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "*").length,
      texts: Array.from(doc.getElementsByTagName("text")).map((t) => t.textContent ?? ""),
      lanes: Array.from(doc.querySelectorAll("text[data-lane]")).map((t) => t.textContent ?? ""),
      legend,
    };
  }, svg);
}

/** Loads bytes as an <img>: its natural size, and how many pixels of a canvas drawing differ from the background. */
function asImage(page: Page, bytes: Buffer, type: string): Promise<{ width: number; height: number; inked: number }> {
  return page.evaluate(
    async ([base64, mime]) => {
      const img = new Image();
      const loaded = new Promise<void>((resolve, reject) => {
        img.onload = () => resolve();
        img.onerror = () => reject(new Error("the image did not load"));
      });
      img.src = `data:${mime};base64,${base64}`;
      await loaded;
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext("2d")!;
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      let inked = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200) inked++;
      return { width: img.naturalWidth, height: img.naturalHeight, inked };
    },
    [bytes.toString("base64"), type] as const,
  );
}

test("the graph exports a pure SVG with title, lanes, axis and legend, and a PNG of it at 2x", async ({ page }) => {
  await openGraph(page, EXAMPLE_ID, "?ov=taint");
  const svg = await downloadOf(page, () => page.getByTestId("graph-toolbar").getByTestId("export-svg").click());
  expect(svg.download.suggestedFilename()).toBe(`${EXAMPLE_ID}.svg`);
  const text = svg.bytes.toString("utf8");
  const parsed = await parseSvg(page, text);
  expect(parsed).toMatchObject({ ok: true, root: "svg", foreign: 0, scripts: 0, html: 0 });
  expect(text).not.toMatch(/foreignObject|xhtml|react-flow/);
  expect(svg.bytes.length).toBeLessThan(40_000);
  expect(parsed.texts[0]).toBe(EXAMPLE_ID);
  expect(parsed.texts[1]).toBe("task demo-task-browser-research · system illustrative · 8 events · 4 agents");
  expect(parsed.lanes).toEqual(["orchestrator", "└ planner_1", "└ executor_1", "browser.search"]);
  expect(parsed.texts).toContain("t (s) — x: time in seconds");
  expect(parsed.legend.edge).toEqual(["temporal (not shown)", "causal", "spawn", "message", "tool dependency", "return", "aggregate", "safety flow"]);
  expect(parsed.legend.event).toEqual(["decision", "spawn", "message", "tool call", "tool result", "return", "aggregate"]);
  expect(parsed.legend.mark).toContain("tainted by untrusted input");

  const image = await asImage(page, svg.bytes, "image/svg+xml");
  expect(image).toMatchObject({ width: parsed.width, height: parsed.height });
  expect(image.inked).toBeGreaterThan(2000); // it draws: glyphs, lines and text, not a blank page

  const png = await downloadOf(page, () => page.getByTestId("graph-toolbar").getByTestId("export-png").click());
  const raster = await asImage(page, png.bytes, "image/png");
  expect(raster).toMatchObject({ width: 2 * parsed.width, height: 2 * parsed.height });
  expect(raster.inked).toBeGreaterThan(4 * 2000);
});

test("a real Who&When run's picture leads its subtitle with the run's question, not its task hash", async ({ page, request }) => {
  const file = JSON.parse(readFileSync("../shared/data/who_and_when/Algorithm-Generated/1.json", "utf8")) as { question: string };
  const imported = await request.post("/api/import?name=1.json&upsert=1", { data: JSON.stringify(file), headers: { "content-type": "application/json" } });
  expect(imported.status()).toBe(201);
  const id = ((await imported.json()) as { traces: { trace_id: string }[] }).traces[0]!.trace_id;
  await openGraph(page, id);
  const svg = await downloadOf(page, () => page.getByTestId("graph-toolbar").getByTestId("export-svg").click());
  const parsed = await parseSvg(page, svg.bytes.toString("utf8"));
  const subtitle = parsed.texts[1]!;
  // the question is long: cut with an ellipsis on one line, the facts after it
  const words = file.question.replace(/\s+/g, " ").trim();
  expect(subtitle.startsWith(`“${words.slice(0, 40)}`)).toBe(true);
  expect(subtitle).toMatch(/… · task /);
});

test("hostile agent names and task ids stay text in the SVG", async ({ page }) => {
  await openGraph(page, HOSTILE_ID);
  const svg = await downloadOf(page, () => page.getByTestId("graph-toolbar").getByTestId("export-svg").click());
  const parsed = await parseSvg(page, svg.bytes.toString("utf8"));
  expect(parsed).toMatchObject({ ok: true, foreign: 0, scripts: 0, html: 0 });
  // the agent's name is long: cut with an ellipsis, never silently, and read back as the characters it has
  expect(parsed.lanes).toEqual(["orchestrator", "└ executor_1", "</text><script>window._…", "browser.search"]);
  expect(parsed.texts[1]).toContain("task ]]><![CDATA[ <foreignObject> \uFFFDbell");
  const image = await asImage(page, svg.bytes, "image/svg+xml");
  expect(image.width).toBe(parsed.width);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});

const boxOf = async (l: Locator) => (await l.boundingBox())!;
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test("a shared agenda link titles each slide as a person would and shows the view without its settings form", async ({ page }) => {
  const heatmap = `/traces/${EXAMPLE_ID}/heatmap?kind=event-family`;
  await page.goto(`/present?agenda=${encodeURIComponent(heatmap)}&agenda=${encodeURIComponent("/dashboard?system=illustrative")}`);
  await expect(page.getByTestId("slide-title")).toHaveText(`Credit heatmap of ${EXAMPLE_ID}`);
  const framed = page.frameLocator("[data-testid=present-frame]");
  await expect(framed.getByTestId("heatmap-panel").first()).toBeVisible({ timeout: 30_000 });
  await expect(framed.getByTestId("heatmap-controls")).toBeHidden();
  // no side panel on a slide
  await expect(framed.getByTestId("heatmap-aside")).toBeHidden();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("slide-title")).toHaveText("Dashboard · system illustrative");
});

test("T in the presenter switches the theme of the presenter and of the slide, and the choice stays", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("baton.theme", "light"));
  await page.goto(`/present?agenda=${encodeURIComponent("/dashboard?system=illustrative")}`);
  const framed = page.frameLocator("[data-testid=present-frame]");
  await expect(framed.locator("html")).toHaveClass(/\bpresenting\b/);
  await expect(framed.locator("html")).not.toHaveClass(/\bdark\b/);
  await page.keyboard.press("t");
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(framed.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.getByTestId("presenter").getByTestId("theme-toggle")).toHaveText("Light theme");
  expect(await page.evaluate(() => localStorage.getItem("baton.theme"))).toBe("dark");
  // with the focus inside the slide as well
  await framed.locator("body").click();
  await page.keyboard.press("t");
  await expect(framed.locator("html")).not.toHaveClass(/\bdark\b/);
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
});

test("the decisions slide shows the view without a filter warning; Decisions and Attribution can be added to the agenda", async ({ page }) => {
  await page.goto(`/present?agenda=${encodeURIComponent("/decisions")}`);
  const framed = page.frameLocator("[data-testid=present-frame]");
  await expect(framed.getByTestId("decisions-scope")).toBeVisible({ timeout: 30_000 });
  await expect(framed.getByText("Ignored invalid filters")).toHaveCount(0);
  await page.goto("/decisions");
  await expect(page.getByTestId("add-to-agenda")).toBeVisible();
});

for (const size of [{ width: 1024, height: 768 }, { width: 1920, height: 1080 }]) {
  test(`the graph slide fits a ${size.width}x${size.height} screen: every node, the STOP badge, no minimap over the drawing`, async ({ page }) => {
    await page.setViewportSize(size);
    const graph = `/traces/${DEMO}/graph?ov=stop`;
    await page.goto(`/present?agenda=${encodeURIComponent(graph)}`);
    const framed = page.frameLocator("[data-testid=present-frame]");
    await expect(framed.getByTestId("graph-canvas")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
    const canvas = await boxOf(framed.getByTestId("graph-canvas"));
    const nodes = framed.getByTestId("event-node");
    const boxes = await Promise.all((await nodes.all()).map(boxOf));
    expect(boxes.length).toBeGreaterThan(10);
    const left = Math.min(...boxes.map((b) => b.x));
    const right = Math.max(...boxes.map((b) => b.x + b.width));
    const bottom = Math.max(...boxes.map((b) => b.y + b.height));
    expect(left).toBeGreaterThanOrEqual(Math.max(0, canvas.x));
    expect(right).toBeLessThanOrEqual(Math.min(size.width, canvas.x + canvas.width));
    expect(bottom).toBeLessThanOrEqual(Math.min(size.height, canvas.y + canvas.height));
    const badge = await boxOf(framed.getByTestId("stop-badge"));
    expect(badge.y).toBeGreaterThanOrEqual(canvas.y);
    expect(badge.x + badge.width).toBeLessThanOrEqual(canvas.x + canvas.width);
    const minimap = framed.locator(".react-flow__minimap");
    if ((await minimap.count()) > 0 && (await minimap.isVisible())) {
      const map = await boxOf(minimap);
      expect(overlaps(map, canvas)).toBe(false);
    }
    // readable from across a room: the height on the screen of every event label, lane name and role and axis tick
    // (11 px text drawn at the fitted zoom measured 8-12 px; the other slides' text about 20 px)
    const slide = (await (await page.getByTestId("present-frame").elementHandle()).contentFrame())!;
    const heights = await slide.evaluate(() => {
      const measured: Record<string, number> = {};
      const groups = { "event label": ".event-id-label", lane: "[data-testid=lane-label] span", "axis tick": "[aria-label='Time axis'] span" };
      for (const [name, selector] of Object.entries(groups)) {
        for (const el of Array.from(document.querySelectorAll(selector))) {
          const text = Array.from(el.childNodes).find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== "");
          if (!text) continue;
          const range = document.createRange();
          range.selectNodeContents(text);
          const h = range.getBoundingClientRect().height;
          if (h > 0) measured[name] = Math.min(measured[name] ?? Infinity, h);
        }
      }
      return measured;
    });
    expect(Object.keys(heights).sort()).toEqual(["axis tick", "event label", "lane"]);
    for (const [name, h] of Object.entries(heights)) expect(h, `${name}: ${h.toFixed(1)} px`).toBeGreaterThanOrEqual(17);
  });
}

test("on the graph page the minimap sits beside the drawing, never over a node", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openGraph(page, DEMO);
  const map = await boxOf(page.locator(".react-flow__minimap"));
  const canvas = await boxOf(page.getByTestId("graph-canvas"));
  expect(overlaps(map, canvas)).toBe(false);
  // nodes panned out of the pane stay in the DOM, clipped by it: what is drawn of a node lies inside the canvas
  let drawn = 0;
  for (const node of await page.getByTestId("event-node").all()) {
    const box = await boxOf(node);
    if (!overlaps(box, canvas)) continue;
    drawn++;
    const x = Math.max(box.x, canvas.x);
    const y = Math.max(box.y, canvas.y);
    const visible = { x, y, width: Math.min(box.x + box.width, canvas.x + canvas.width) - x, height: Math.min(box.y + box.height, canvas.y + canvas.height) - y };
    expect(overlaps(map, visible)).toBe(false);
  }
  expect(drawn).toBeGreaterThan(5);
  // it still navigates: dragging on the map pans the view
  const before = await page.locator(".react-flow__viewport").getAttribute("style");
  await page.mouse.move(map.x + map.width * 0.3, map.y + map.height / 2);
  await page.mouse.down();
  await page.mouse.move(map.x + map.width * 0.6, map.y + map.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => page.locator(".react-flow__viewport").getAttribute("style")).not.toBe(before);
});

test("the presenter exports the graph slide as the same pure SVG", async ({ page }) => {
  await page.goto(`/present?agenda=${encodeURIComponent(`/traces/${EXAMPLE_ID}/graph`)}`);
  const framed = page.frameLocator("[data-testid=present-frame]");
  await expect(framed.getByTestId("graph-canvas")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  const svg = await downloadOf(page, () => page.getByTestId("presenter").getByTestId("export-svg").click());
  const parsed = await parseSvg(page, svg.bytes.toString("utf8"));
  expect(parsed).toMatchObject({ ok: true, foreign: 0 });
  expect(parsed.texts[0]).toBe(EXAMPLE_ID);
  expect(parsed.legend.edge).toHaveLength(8);
});

test("the production build has no benchmark route at all (not only a 404)", async ({ request }) => {
  const manifest = JSON.parse(readFileSync(`${e2eDistDir}/server/app-paths-manifest.json`, "utf8")) as Record<string, string>;
  expect(Object.keys(manifest).filter((route) => route.startsWith("/bench"))).toEqual([]);
  expect(Object.keys(manifest)).toContain("/traces/[id]/graph/page");
  expect((await request.get("/bench/baseline?trace=x")).status()).toBe(404);
});
