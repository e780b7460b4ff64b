import Link from "next/link";
import { ReceivingBadge } from "@/app/_components/receiving-traces";
import type { ReceivingTrace } from "@/lib/server/otel/receiving";
import { counted } from "@/lib/format";

/**
 * A trace still arriving over OTLP (docs/otlp.md). Without a stored version
 * the page shows only this; with one (spans came after it was stored) it
 * says that what follows is the earlier version.
 */
export function ReceivingNotice({ state, stored }: { state: ReceivingTrace; stored: boolean }) {
  const when = `${state.idle_seconds} s after its last span, or on POST /api/otel/v1/flush`;
  return (
    <div className="space-y-2 rounded border border-sky-300 bg-sky-50 p-3 text-sm text-sky-900" role="status" data-testid="receiving-notice">
      {!stored && <Link href="/" className="text-sm text-blue-700 hover:underline">← Traces</Link>}
      {!stored && <h1 className="break-all font-mono text-xl font-semibold">{state.trace_id}</h1>}
      <p>
        <ReceivingBadge status={state.status} />{" "}
        {state.status === "failed"
          ? `The spans received so far do not make a trace: ${state.error ?? "unknown reason"}. New spans retry.`
          : `${counted(state.spans, "span")} received from ${state.service ?? "an unknown service"}, the last at ${state.last_span_at.replace("T", " ").slice(0, 19)} UTC. The trace is stored ${when}.`}
      </p>
      {stored && <p>What follows is the version stored at {state.finalised_at?.replace("T", " ").slice(0, 19) ?? "an earlier time"} UTC, without the newer spans.</p>}
    </div>
  );
}
