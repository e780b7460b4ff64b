"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { call, describeFailure, formBody } from "@/lib/api/client";
import { setRubrics } from "@/lib/api/contracts/projects";
import { formText } from "@/lib/api/send";
import type { Rubric } from "@/lib/rubrics";

/** A project's rubrics, editable by its admins (the API answers others with a 403, shown here). */
export function RubricEditor({ project, rubrics, custom }: { project: string; rubrics: Rubric[]; custom: string[] }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const put = async (body: Record<string, unknown>) => {
    const result = await call(setRubrics, { params: { project }, body: formBody(setRubrics, body) });
    setMessage(result.ok ? "saved" : describeFailure(result));
    if (result.ok) router.refresh();
  };
  return (
    <div className="space-y-3">
      {rubrics.map((r) => (
        <form
          key={r.family}
          className="space-y-1 rounded border border-slate-200 bg-white p-3 text-sm"
          data-testid={`rubric-form-${r.family}`}
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            void put({ rubrics: [{ family: r.family, negative: formText(f, "negative"), neutral: formText(f, "neutral"), positive: formText(f, "positive") }] });
          }}
        >
          <h2 className="font-semibold">{r.family} {custom.includes(r.family) ? <span className="text-xs text-amber-700">(this project&apos;s own)</span> : <span className="text-xs text-slate-500">(default)</span>}</h2>
          {(["negative", "neutral", "positive"] as const).map((k) => (
            <label key={k} className="block">
              <span className="text-xs text-slate-600">{k === "negative" ? "−1 (fail for a trace's task_success; cheap for cost)" : k === "neutral" ? "0" : "+1 (success for a trace's task_success; wasteful for cost)"}</span>
              <textarea name={k} defaultValue={r[k]} rows={2} className="block w-full rounded border border-slate-300 bg-white p-1" />
            </label>
          ))}
          <div className="flex gap-2">
            <button type="submit" className="rounded bg-slate-900 px-2 py-1 text-white hover:bg-slate-700">Save {r.family}</button>
            {custom.includes(r.family) && <button type="button" onClick={() => void put({ reset: [r.family] })} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100">Back to the default</button>}
          </div>
        </form>
      ))}
      {message && <p data-testid="rubric-message" className="text-sm">{message}</p>}
    </div>
  );
}
