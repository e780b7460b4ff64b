"use client";

import { call, formBody } from "@/lib/api/client";
import { createJudge } from "@/lib/api/contracts/judges";
import { formText } from "@/lib/api/send";
import { FAMILIES } from "@/lib/trace/types";
import { useAdminCall } from "@/app/admin/_components/use-admin-call";

/** A new judge: the key is sent once and never shown again (the API returns only whether one is set). */
export function JudgeForm({ projects }: { projects: string[] }) {
  const { error, run } = useAdminCall();
  const submit = (form: FormData) => {
    const key = formText(form, "api_key");
    const body = {
      project: formText(form, "project"), name: formText(form, "name"), base_url: formText(form, "base_url"), model: formText(form, "model"),
      ...(key !== "" && { api_key: key }), families: form.getAll("families").filter((v): v is string => typeof v === "string"), temperature: Number(formText(form, "temperature") || 0),
      max_tokens: Number(formText(form, "max_tokens") || 200), json_schema: form.get("json_schema") === "on",
    };
    void run(call(createJudge, { body: formBody(createJudge, body) }));
  };
  const input = "rounded border border-slate-300 px-1";
  return (
    <form action={submit} className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm" data-testid="judge-form">
      <div className="font-medium">New judge</div>
      <div className="flex flex-wrap gap-3">
        <label className="flex items-center gap-1">project <select name="project" className={input}>{projects.map((p) => <option key={p}>{p}</option>)}</select></label>
        <label className="flex items-center gap-1">name <input name="name" required className={input} /></label>
        <label className="flex items-center gap-1">base URL <input name="base_url" required placeholder="http://localhost:11434/v1" className={`${input} w-64`} /></label>
        <label className="flex items-center gap-1">model <input name="model" required className={input} /></label>
        <label className="flex items-center gap-1">API key <input name="api_key" type="password" autoComplete="off" className={input} /></label>
        <label className="flex items-center gap-1">temperature <input name="temperature" type="number" step="0.1" min={0} max={2} defaultValue={0} className={`${input} w-16`} /></label>
        <label className="flex items-center gap-1">max tokens <input name="max_tokens" type="number" min={16} max={8192} defaultValue={200} className={`${input} w-20`} /></label>
        <label className="flex items-center gap-1"><input name="json_schema" type="checkbox" defaultChecked /> JSON schema response format</label>
      </div>
      <fieldset className="flex flex-wrap gap-3">
        <legend className="text-slate-600">families</legend>
        {FAMILIES.map((f) => <label key={f} className="flex items-center gap-1"><input type="checkbox" name="families" value={f} defaultChecked={f === "task_success"} /> {f}</label>)}
      </fieldset>
      <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-white hover:bg-slate-700" data-testid="judge-create">Create judge</button>
      {error && <p className="text-red-700">{error}</p>}
    </form>
  );
}
