"use client";

import { TOKENIZER_CHOICES, type GatewayUpstream } from "@/lib/api/gateway";
import { call, formBody } from "@/lib/api/client";
import { deleteGateway, putGateway } from "@/lib/api/contracts/gateway";
import { formText } from "@/lib/api/send";
import { useAdminCall } from "./use-admin-call";

const input = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";

/** The recording gateway's upstream per project (docs/gateway.md): set, replace, remove. The key is write-only. */
export function GatewayPanel({ upstreams, projects }: { upstreams: GatewayUpstream[]; projects: string[] }) {
  const { error, run } = useAdminCall();
  const save = async (form: FormData) => {
    const apiKey = formText(form, "api_key");
    await run(
      call(putGateway, { params: { project: formText(form, "project") }, body: formBody(putGateway, {
        base_url: formText(form, "base_url"),
        ...(apiKey !== "" && { api_key: apiKey }),
        timeout_ms: Number(form.get("timeout_s")) * 1000,
        request_token_ids: form.get("request_token_ids") === "on",
        request_logprobs: form.get("request_logprobs") === "on",
        tokenizer: formText(form, "tokenizer") === "" ? null : formText(form, "tokenizer"),
      }) }),
    );
  };
  return (
    <section className="space-y-3">
      <h2 className="text-lg font-semibold">Model gateway</h2>
      <p className="max-w-3xl text-sm text-slate-600">
        Where <code>/api/llm/…/v1</code> forwards each project&apos;s model calls (an OpenAI-compatible server). Frameworks point their
        <code> OPENAI_BASE_URL</code> at <code>/api/llm/run/&lt;run key&gt;/v1</code> with an <code>ingest</code> key; every call is
        recorded as the model saw it. Leave the key empty to keep the stored one.
      </p>
      <form action={save} aria-label="Set a project's upstream" className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3">
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Project
          <select name="project" className={input}>
            {projects.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Base URL
          <input name="base_url" type="url" required placeholder="http://gpu-box:8000/v1" className={`${input} w-72`} />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          API key
          <input name="api_key" type="password" autoComplete="off" className={`${input} w-48`} />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Time limit (s)
          <input name="timeout_s" type="number" min={1} max={3600} defaultValue={600} className={`${input} w-24`} />
        </label>
        <label className="flex items-center gap-1 text-xs font-medium text-slate-600">
          <input name="request_token_ids" type="checkbox" /> token ids
        </label>
        <label className="flex items-center gap-1 text-xs font-medium text-slate-600">
          <input name="request_logprobs" type="checkbox" /> logprobs
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Token ids when the server gives none
          <select name="tokenizer" defaultValue="" className={input}>
            <option value="">none</option>
            {TOKENIZER_CHOICES.map((e) => <option key={e} value={e}>{e === "project" ? "the project's tokenizer" : e}</option>)}
          </select>
        </label>
        <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-sm text-white hover:bg-slate-700">Save upstream</button>
      </form>
      {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
      <table className="w-full border-collapse text-sm" data-testid="gateway-table">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
            {["Project", "Base URL", "Key", "Time limit", "Asks for", "Updated", ""].map((h) => <th key={h} className="py-1 pr-3">{h}</th>)}
          </tr>
        </thead>
        <tbody>
          {upstreams.map((u) => (
            <tr key={u.project} className="border-b border-slate-100">
              <td className="py-1.5 pr-3">{u.project}</td>
              <td className="py-1.5 pr-3 font-mono text-xs">{u.base_url}</td>
              <td className="py-1.5 pr-3 text-xs">{u.has_api_key ? "set" : "none"}</td>
              <td className="py-1.5 pr-3 text-xs">{u.timeout_ms / 1000} s</td>
              <td className="py-1.5 pr-3 text-xs">{[u.request_token_ids && "token ids", u.request_logprobs && "logprobs", u.tokenizer && `else ${u.tokenizer}`].filter(Boolean).join(", ") || "—"}</td>
              <td className="py-1.5 pr-3 text-xs">{u.updated_at.slice(0, 16).replace("T", " ")}</td>
              <td className="py-1.5">
                <button type="button" className="text-xs text-red-700 hover:underline" onClick={() => void run(call(deleteGateway, { params: { project: u.project } }))}>
                  remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
