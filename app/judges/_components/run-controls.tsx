"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";
import { formText, sendJson } from "@/lib/api/send";
import type { RunStatus } from "@/lib/server/judges/runs";
import { useAdminCall } from "@/app/admin/_components/use-admin-call";

/** Start a run over all the project's traces (or one queue), cancel or resume the latest; refreshes while a run is going. */
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
  const start = (form: FormData) => {
    const queue = formText(form, "queue").trim();
    const body = { ...(queue !== "" ? { queue_id: Number(queue) } : { filter: {} }), concurrency: Number(formText(form, "concurrency") || 4) };
    void run(sendJson("POST", `/api/judges/${judgeId}/runs`, body));
  };
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <form action={start} className="flex items-center gap-2">
        <label className="flex items-center gap-1">queue id <input name="queue" inputMode="numeric" className="w-16 rounded border border-slate-300 px-1" placeholder="all" /></label>
        <label className="flex items-center gap-1">concurrency <input name="concurrency" type="number" min={1} max={64} defaultValue={4} className="w-14 rounded border border-slate-300 px-1" /></label>
        <button type="submit" className="rounded bg-slate-900 px-2 py-1 text-white hover:bg-slate-700" data-testid="judge-run-start">Run</button>
      </form>
      {latest && running && <button type="button" className="rounded border border-slate-300 px-2 py-1" onClick={() => void run(sendJson("POST", `/api/judge-runs/${latest.id}/cancel`))}>Cancel</button>}
      {latest && !running && latest.state !== "done" && <button type="button" className="rounded border border-slate-300 px-2 py-1" onClick={() => void run(sendJson("POST", `/api/judge-runs/${latest.id}/resume`))}>Resume</button>}
      {error && <span className="text-red-700">{error}</span>}
    </div>
  );
}
