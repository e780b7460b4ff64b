/**
 * In-browser measurements for `npm run bench:render`: time to interactive
 * (a ready marker, then a quiet window without long tasks) and frame times
 * while the pane is dragged with the mouse.
 */
import type { Page } from "@playwright/test";

/** Injected before any page script: records long tasks (> 50 ms) since navigation start. */
export const LONG_TASK_RECORDER = `
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.startTime + e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (e) {}
`;

const QUIET_MS = 500;

export interface Interactive {
  /** ms after navigation start when the ready selector matched. */
  readyMs: number;
  /** ms after navigation start when the main thread then stayed free of long tasks for QUIET_MS. */
  interactiveMs: number;
  longTasks: number;
}

/**
 * Waits until `isReady` (evaluated in the page every frame) holds, then for a
 * 500 ms window with no long task; the end of the last long task before that
 * window (or the ready time) is the time to interactive.
 */
export async function timeToInteractive(page: Page, isReady: string, timeoutMs: number): Promise<Interactive> {
  const handle = await page.waitForFunction(`(() => (${isReady}) ? performance.now() : false)()`, null, { polling: "raf", timeout: timeoutMs });
  const readyMs = (await handle.jsonValue()) as number;
  for (;;) {
    const state = await page.evaluate(
      ([ready, quiet]) => {
        const tasks = ((window as unknown as { __longTasks: [number, number][] }).__longTasks ?? []).slice().sort((a, b) => a[0] - b[0]);
        let t = ready;
        for (const [start, end] of tasks) if (start < t + quiet) t = Math.max(t, end);
        return { t, now: performance.now(), count: tasks.length };
      },
      [readyMs, QUIET_MS] as const,
    );
    if (state.now >= state.t + QUIET_MS) return { readyMs, interactiveMs: state.t, longTasks: state.count };
    await page.waitForTimeout(100);
  }
}

export interface FrameStats {
  frames: number;
  medianMs: number;
  p95Ms: number;
  /** Wall time of the whole drag. */
  panMs: number;
}

export interface Pan {
  /** Separate drags (mouse down, moves, up), each starting at the pane's right side. */
  strokes: number;
  steps: number;
  stepPx: number;
  /** Drag left then back to the start (a short pan), else only left. */
  back: boolean;
}

/** Drags the pane with the mouse and records every animation frame meanwhile. */
export async function panFrames(page: Page, paneSelector: string, pan: Pan): Promise<FrameStats> {
  const box = await page.locator(paneSelector).first().boundingBox();
  if (!box) throw new Error(`no ${paneSelector} on the page`);
  // A string, not a function: the bench runs under tsx, whose transform would wrap named inner functions in a helper the page lacks.
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__framesOn = true;
    let last = performance.now();
    const loop = (now) => {
      window.__frames.push(now - last);
      last = now;
      if (window.__framesOn) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  })()`);
  const cx = box.x + box.width * 0.9;
  const cy = box.y + box.height * 0.5;
  const started = Date.now();
  for (let stroke = 0; stroke < pan.strokes; stroke++) {
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    for (let i = 1; i <= pan.steps; i++) {
      const offset = pan.back ? Math.min(i, pan.steps / 2) * pan.stepPx - Math.max(0, i - pan.steps / 2) * pan.stepPx : i * pan.stepPx;
      await page.mouse.move(cx - offset, cy + (i % 2));
    }
    await page.mouse.up();
  }
  await page.waitForTimeout(100);
  const panMs = Date.now() - started;
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __framesOn: boolean };
    w.__framesOn = false;
    return w.__frames.slice(1);
  });
  const sorted = [...frames].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { frames: frames.length, medianMs: at(0.5), p95Ms: at(0.95), panMs };
}
