"use client";

import { useState } from "react";
import { call, formBody } from "@/lib/api/client";
import { updateJudge } from "@/lib/api/contracts/judges";
import { formText } from "@/lib/api/send";
import { useAdminCall } from "@/app/admin/_components/use-admin-call";

/**
 * A judge's own instructions per family, edited in place (PATCH
 * /api/judges/{id}). They are added after the family's rubric, which the
 * prompt always carries; a changed prompt has a new hash, so the next run
 * makes new values and the old ones keep their history (docs/judges.md).
 */
export function PromptEditor({ judgeId, families, prompts }: { judgeId: number; families: string[]; prompts: Record<string, string> }) {
  const { error, run } = useAdminCall();
  const [saved, setSaved] = useState(false);
  const submit = async (form: FormData) => {
    const next: Record<string, string> = {};
    for (const f of families) {
      const text = formText(form, `prompt.${f}`).trim();
      if (text !== "") next[f] = text;
    }
    setSaved((await run(call(updateJudge, { params: { id: String(judgeId) }, body: formBody(updateJudge, { prompts: next }) }))) !== null);
  };
  return (
    <details className="text-sm" data-testid="judge-prompts">
      <summary className="cursor-pointer text-slate-700">Prompts ({Object.keys(prompts).length} of {families.length} families have their own)</summary>
      <form action={submit} className="mt-2 space-y-2">
        <p className="text-xs text-slate-600">Each family&apos;s prompt is its rubric (the /rubrics page) plus the instructions below; leave empty for the rubric alone.</p>
        {families.map((f) => (
          <label key={f} className="block">
            <span className="font-mono text-xs">{f}</span>
            <textarea name={`prompt.${f}`} defaultValue={prompts[f] ?? ""} rows={2} maxLength={10_000} className="block w-full rounded border border-slate-300 px-1 font-mono text-xs" />
          </label>
        ))}
        <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-white hover:bg-slate-700">Save prompts</button>
        {saved && !error && <span className="ml-2 text-xs text-green-800" role="status">saved</span>}
        {error && <p className="text-red-700">{error}</p>}
      </form>
    </details>
  );
}
