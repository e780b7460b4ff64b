import "server-only";
import { onPrimary } from "../db/read";
import { finaliseIdleRuns, gatewayIdleSeconds } from "./runs";

/**
 * Finalises idle gateway runs without an external cron, as the OTLP sweeper
 * does (lib/server/otel/sweeper.ts): a timer per process (state on
 * globalThis), started by the first gateway call, every
 * BATON_GATEWAY_IDLE_S / 2 seconds within 1-30 s; one sweep at a time per
 * process.
 */

interface SweeperState {
  timer?: ReturnType<typeof setInterval>;
  running?: Promise<void>;
  lastKick?: number;
}

const state = ((globalThis as unknown as { batonGatewaySweeper?: SweeperState }).batonGatewaySweeper ??= {});

export function ensureGatewaySweeper(): void {
  if (state.timer !== undefined) return;
  const periodMs = Math.min(30_000, Math.max(1_000, (gatewayIdleSeconds() * 1000) / 2));
  state.timer = setInterval(kickGatewaySweep, periodMs);
  state.timer.unref?.();
}

export function stopGatewaySweeper(): void {
  if (state.timer !== undefined) clearInterval(state.timer);
  state.timer = undefined;
}

/** Starts a sweep unless one runs or one started less than a second ago (every call kicks; the timer does the rest). */
export function kickGatewaySweep(now = Date.now()): void {
  if (state.running !== undefined || now - (state.lastKick ?? 0) < 1000) return;
  state.lastKick = now;
  state.running = onPrimary(() => finaliseIdleRuns())
    .then(() => undefined)
    .catch((error: unknown) => console.error("[baton] gateway sweep failed:", error))
    .finally(() => {
      state.running = undefined;
    });
}

