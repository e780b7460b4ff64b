import "server-only";
import { onPrimary } from "../db/read";
import { otelConfig } from "../config";
import { finaliseIdleTraces } from "./finalise";

/**
 * Finalises idle traces without an external cron: a sweep runs at the start
 * of each OTLP request and flush (without delaying it), and on a timer
 * started once per server process (the state lives on globalThis, so that
 * Next's dev reloads do not start a second one). One sweep at a time per
 * process; several processes may sweep at once, which the claim in
 * finalise.ts makes safe.
 */

interface SweeperState {
  timer?: ReturnType<typeof setInterval>;
  running?: Promise<void>;
}

const state = (globalThis as unknown as { batonOtelSweeper?: SweeperState }).batonOtelSweeper ??= {};

/** Starts the timer (every BATON_OTEL_IDLE_S / 2 seconds, within 1-30 s) unless it runs already. */
export function ensureSweeper(): void {
  if (state.timer !== undefined) return;
  const periodMs = Math.min(30_000, Math.max(1_000, (otelConfig().idleSeconds * 1000) / 2));
  state.timer = setInterval(kickSweep, periodMs);
  state.timer.unref?.();
}

/** Stops the timer (tests, shutdown). */
export function stopSweeper(): void {
  if (state.timer !== undefined) clearInterval(state.timer);
  state.timer = undefined;
}

/** Starts a sweep in the background unless one is running in this process; errors are logged, never thrown. */
export function kickSweep(): void {
  if (state.running !== undefined) return;
  state.running = onPrimary(() => finaliseIdleTraces())
    .then(() => undefined)
    .catch((error: unknown) => console.error("[baton] OTLP sweep failed:", error))
    .finally(() => {
      state.running = undefined;
    });
}

/** Waits for the sweep in progress, if any (tests). */
export async function sweepSettled(): Promise<void> {
  await state.running;
}
