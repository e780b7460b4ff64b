"use client";

import { useState } from "react";
import type { ProjectTokenizer } from "@/lib/api/gateway";
import { call, formBody } from "@/lib/api/client";
import { deleteTokenizer, putTokenizer } from "@/lib/api/contracts/gateway";
import { formText } from "@/lib/api/send";
import { useAdminCall } from "./use-admin-call";

const input = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";

/** A file of the form read as JSON, or a message naming it. */
async function jsonFile(form: FormData, name: string, label: string): Promise<{ value?: Record<string, unknown>; problem?: string }> {
  const file = form.get(name);
  if (!(file instanceof File) || file.size === 0) return {};
  try {
    return { value: JSON.parse(await file.text()) as Record<string, unknown> };
  } catch (error) {
    return { problem: `${label} is not JSON: ${(error as Error).message}` };
  }
}

/**
 * Each project's Hugging Face tokenizer (docs/gateway.md "Token ids from a
 * project's tokenizer"): the model's tokenizer.json and tokenizer_config.json,
 * and a chat template file when the config has none. The gateway uses it
 * when the project's upstream names "the project's tokenizer".
 */
export function TokenizerPanel({ tokenizers, projects }: { tokenizers: ProjectTokenizer[]; projects: string[] }) {
  const { error, run } = useAdminCall();
  const [problem, setProblem] = useState<string | null>(null);
  const upload = async (form: FormData) => {
    const tokenizer = await jsonFile(form, "tokenizer", "tokenizer.json");
    const config = await jsonFile(form, "tokenizer_config", "tokenizer_config.json");
    const templateFile = form.get("chat_template");
    const chatTemplate = templateFile instanceof File && templateFile.size > 0 ? await templateFile.text() : null;
    const found = tokenizer.problem ?? config.problem ?? (tokenizer.value === undefined ? "choose the model's tokenizer.json" : null);
    setProblem(found);
    if (found !== null) return;
    await run(
      call(putTokenizer, { params: { project: formText(form, "project") }, body: formBody(putTokenizer, {
        name: formText(form, "name"),
        tokenizer: tokenizer.value,
        ...(config.value !== undefined && { tokenizer_config: config.value }),
        chat_template: chatTemplate,
      }) }),
    );
  };
  const file = "text-xs file:mr-2 file:rounded file:border file:border-slate-300 file:bg-white file:px-2 file:py-1";
  return (
    <section className="space-y-3">
      <h3 className="text-base font-semibold">Tokenizers</h3>
      <p className="max-w-3xl text-sm text-slate-600">
        For open models served without token ids: upload the model&apos;s <code>tokenizer.json</code> and <code>tokenizer_config.json</code>{" "}
        (its chat template inside, or a template file), then set the project&apos;s upstream to take token ids from &quot;the project&apos;s
        tokenizer&quot;. Baton renders each call through the template and marks its ids as its own.
      </p>
      <form action={upload} aria-label="Upload a project's tokenizer" className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3">
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Project
          <select name="project" className={input}>
            {projects.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Model
          <input name="name" required maxLength={200} placeholder="Qwen/Qwen2.5-7B-Instruct" className={`${input} w-64`} />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          tokenizer.json
          <input name="tokenizer" type="file" accept=".json,application/json" required className={file} />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          tokenizer_config.json
          <input name="tokenizer_config" type="file" accept=".json,application/json" className={file} />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Chat template (optional)
          <input name="chat_template" type="file" accept=".jinja,.j2,.txt" className={file} />
        </label>
        <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-sm text-white hover:bg-slate-700">Upload tokenizer</button>
      </form>
      {(problem ?? error) && <p role="alert" className="text-sm text-red-700">{problem ?? error}</p>}
      <table className="w-full border-collapse text-sm" data-testid="tokenizer-table">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
            {["Project", "Model", "Tokens", "Chat template", "Updated", ""].map((h) => <th key={h} className="py-1 pr-3">{h}</th>)}
          </tr>
        </thead>
        <tbody>
          {tokenizers.map((t) => (
            <tr key={t.project} className="border-b border-slate-100">
              <td className="py-1.5 pr-3">{t.project}</td>
              <td className="py-1.5 pr-3 font-mono text-xs">{t.name}</td>
              <td className="py-1.5 pr-3 text-xs">{t.vocab_size.toLocaleString("en-US")}</td>
              <td className="py-1.5 pr-3 text-xs">{t.chat_template === "config" ? "from the config" : "uploaded"}</td>
              <td className="py-1.5 pr-3 text-xs">{t.updated_at.slice(0, 16).replace("T", " ")}</td>
              <td className="py-1.5">
                <button type="button" className="text-xs text-red-700 hover:underline" onClick={() => void run(call(deleteTokenizer, { params: { project: t.project } }))}>
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
