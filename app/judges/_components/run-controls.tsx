"use client";

import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { call, formBody } from "@/lib/api/client";
import { cancelJudgeRun, resumeJudgeRun, startJudgeRun } from "@/lib/api/contracts/judges";
import { formText } from "@/lib/api/send";
import type { RunStatus } from "@/lib/api/contracts/judges";
import { useAdminCall } from "@/app/admin/_components/use-admin-call";

/** What a run goes over, as the API takes it (`POST /api/judges/{id}/runs`). */
const OVER = [
  ["all", "all the project's traces", ""],
  ["system", "a system", "system name"],
  ["traces", "these traces", "trace ids, comma-separated"],
  ["queue", "a queue", "queue id"],
] as const;
type Over = (typeof OVER)[number][0];

/** The run's source from the form: null when the chosen kind needs a value and has none. */
function runSource(over: Over, what: string): Record<string, unknown> | null {
  if (over === "all") return { filter: {} };
  if (what === "") return null;
  if (over === "system") return { filter: { system: what } };
  if (over === "traces") return { filter: { trace_ids: what.split(/[\s,]+/).filter(Boolean) } };
  return /^\d+$/.test(what) ? { queue_id: Number(what) } : null;
}

/** Start a run over all the project's traces, a system, some traces or a queue; cancel or resume the latest; refreshes while a run is going. */
export function RunControls({ judgeId, runs }: { judgeId: number; runs: RunStatus[] }) {
  const { error, run } = useAdminCall();
  const router = useRouter();
  const latest = runs[0];
  const running = latest?.state === "running";
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => router.refresh(), 1000);
    return () => clearInterval(timer);
  }, [running, router]);
  const [over, setOver] = useState<Over>("all");
  const [missing, setMissing] = useState<string | null>(null);
  const start = (form: FormData) => {
    const source = runSource(over, formText(form, "what").trim());
    if (source === null) {
      setMissing(`give ${OVER.find((o) => o[0] === over)![2]}`);
      return;
    }
    setMissing(null);
    void run(call(startJudgeRun, { params: { id: String(judgeId) }, body: formBody(startJudgeRun, { ...source, concurrency: Number(formText(form, "concurrency") || 4) }) }));
  };
  const placeholder = OVER.find((o) => o[0] === over)![2];
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <form action={start} className="flex items-center gap-2">
        <label className="flex items-center gap-1">over
          <select name="over" value={over} onChange={(e) => setOver(e.target.value as Over)} className="rounded border border-slate-300 px-1">
            {OVER.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </label>
        {over !== "all" && <input name="what" aria-label={placeholder} placeholder={placeholder} className="w-56 rounded border border-slate-300 px-1" inputMode={over === "queue" ? "numeric" : undefined} />}
        <label className="flex items-center gap-1">concurrency <input name="concurrency" type="number" min={1} max={64} defaultValue={4} className="w-14 rounded border border-slate-300 px-1" /></label>
        <button type="submit" className="rounded bg-slate-900 px-2 py-1 text-white hover:bg-slate-700" data-testid="judge-run-start">Run</button>
      </form>
      {latest && running && <button type="button" className="rounded border border-slate-300 px-2 py-1" onClick={() => void run(call(cancelJudgeRun, { params: { id: String(latest.id) } }))}>Cancel</button>}
      {latest && !running && latest.state !== "done" && <button type="button" className="rounded border border-slate-300 px-2 py-1" onClick={() => void run(call(resumeJudgeRun, { params: { id: String(latest.id) } }))}>Resume</button>}
      {(missing ?? error) && <span className="text-red-700" role="alert">{missing ?? error}</span>}
    </div>
  );
}
