import Link from "next/link";
import { counted } from "@/lib/format";
import { replayProvenance } from "@/lib/replay/provenance";

/**
 * On a replay's trace: which run it replays, what was changed and how its
 * calls were answered, with the way back to the original, the two side by
 * side and the measured effects (docs/replay.md). Nothing for other traces.
 */
export function ReplayOf({ traceId, metadata }: { traceId: string; metadata: unknown }) {
  const r = replayProvenance(metadata);
  if (r === null) return null;
  const original = (
    <Link href={`/traces/${encodeURIComponent(r.of)}`} className="font-mono text-blue-700 hover:underline" data-testid="replay-original">{r.of}</Link>
  );
  const changed = r.callId === null ? null : r.replaced === "tool_result" ? `a tool result that model call ${r.callId} read replaced` : `model call ${r.callId}'s reply replaced`;
  const answered = [
    r.answered.record > 0 && `${counted(r.answered.record, "call")} answered from the record`,
    r.answered.edit > 0 && `${counted(r.answered.edit, "call")} by the edit`,
    `${r.answered.live === 0 ? "none" : counted(r.answered.live, "call")} by the model`,
  ].filter(Boolean).join(", ");
  return (
    <section className="rounded border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-950 dark:bg-transparent dark:text-indigo-100" data-testid="replay-of">
      <p>
        {changed === null ? <>An unchanged replay of {original}</> : <>A replay of {original} with {changed}</>}
        {" "}({[r.intervention !== null && `intervention ${r.intervention}`, r.intent !== null && `intent: ${r.intent}`, `sample ${r.sample}`].filter(Boolean).join(", ")}): {answered}.
      </p>
      {r.diverged !== null && (
        <p className="mt-1 text-amber-900" data-testid="replay-diverged">
          The program left the record at its request {r.diverged.request} ({r.diverged.agent}): it sent a request the original run did not, so this run does not count toward a measured effect.
        </p>
      )}
      <nav className="mt-1 flex gap-4">
        <Link href={`/compare?a=${encodeURIComponent(r.of)}&b=${encodeURIComponent(traceId)}`} className="text-blue-700 hover:underline" data-testid="replay-compare">Compare with the original</Link>
        <Link href={`/traces/${encodeURIComponent(r.of)}/heatmap#measured-effects`} className="text-blue-700 hover:underline">Measured effects</Link>
      </nav>
    </section>
  );
}

/** On a replayed trace: how often it was replayed and changed, and where the measured effects are. Nothing for a trace never replayed. */
export function Replayed({ traceId, counts }: { traceId: string; counts: { replays: number; interventions: number; forks: number } }) {
  if (counts.replays === 0 && counts.forks === 0) return null;
  const parts = [
    counts.replays > 0 && counted(counts.replays, "unchanged replay"),
    counts.interventions > 0 && `${counted(counts.interventions, "intervention")} with ${counted(counts.forks, "fork")}`,
  ].filter(Boolean);
  return (
    <p className="rounded border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-950 dark:bg-transparent dark:text-indigo-100" data-testid="replayed">
      This run was replayed: {parts.join(", ")}.{" "}
      <Link href={`/traces/${encodeURIComponent(traceId)}/heatmap#measured-effects`} className="text-blue-700 hover:underline">Measured effects</Link>
    </p>
  );
}
