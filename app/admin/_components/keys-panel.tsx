"use client";

import { useState } from "react";
import { SCOPES, type ApiKeyInfo, type ApiUser } from "@/lib/api/auth";
import { call, formBody } from "@/lib/api/client";
import { createKey, revokeKey } from "@/lib/api/contracts/admin";
import { formText } from "@/lib/api/send";
import { useAdminCall } from "./use-admin-call";

const input = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";

/** API keys: create (the key is shown here once), list, revoke. */
export function KeysPanel({ keys, users, selfId }: { keys: ApiKeyInfo[]; users: ApiUser[]; selfId: number }) {
  const { error, run } = useAdminCall();
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const create = async (form: FormData) => {
    const name = formText(form, "name");
    const scopes = SCOPES.filter((s) => form.get(`scope-${s}`) === "on");
    const created = await run(call(createKey, { body: formBody(createKey, { name, scopes, user_id: Number(form.get("user_id")) }) }));
    setShown(created ? { name, key: created.key } : null);
  };
  return (
    <section className="space-y-3">
      <h2 className="text-lg font-semibold">API keys</h2>
      <p className="max-w-3xl text-sm text-slate-600">
        For scripts and ingestion: send <code>Authorization: Bearer &lt;key&gt;</code>. A key does what its scopes allow, and never more
        than the user it acts as.
      </p>
      <form action={create} aria-label="Create an API key" className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3">
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Name
          <input name="name" required placeholder="nightly ingest" className={`${input} w-48`} />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          Acts as
          <select name="user_id" defaultValue={selfId} className={input}>
            {users.map((u) => <option key={u.id} value={u.id}>{u.email}</option>)}
          </select>
        </label>
        {SCOPES.map((s) => (
          <label key={s} className="flex items-center gap-1 text-xs font-medium text-slate-600">
            <input name={`scope-${s}`} type="checkbox" defaultChecked={s === "ingest"} /> {s}
          </label>
        ))}
        <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-sm text-white hover:bg-slate-700">
          Create key
        </button>
      </form>
      {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
      {shown && (
        <div className="rounded border border-emerald-300 bg-emerald-50 p-3 text-sm" data-testid="new-key">
          <p>
            Key <strong>{shown.name}</strong>, shown this once (Baton keeps only its hash):
          </p>
          <code className="block break-all font-mono text-xs">{shown.key}</code>
        </div>
      )}
      <table className="w-full border-collapse text-sm" data-testid="keys-table">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
            {["Key", "Name", "Scopes", "Acts as", "Created", "Last used", ""].map((h) => <th key={h} className="py-1 pr-3">{h}</th>)}
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id} className="border-b border-slate-100">
              <td className="py-1.5 pr-3 font-mono text-xs">{k.prefix}…</td>
              <td className="py-1.5 pr-3">{k.name}</td>
              <td className="py-1.5 pr-3">{k.scopes.join(", ")}</td>
              <td className="py-1.5 pr-3">{k.user_email ?? `user ${k.user_id} (deleted)`}</td>
              <td className="py-1.5 pr-3 text-xs">{k.created_at.slice(0, 16).replace("T", " ")}</td>
              <td className="py-1.5 pr-3 text-xs">{k.last_used_at?.slice(0, 16).replace("T", " ") ?? "never"}</td>
              <td className="py-1.5">
                {k.revoked_at ? (
                  <span className="text-xs text-slate-500">revoked</span>
                ) : (
                  <button type="button" className="text-xs text-red-700 hover:underline" onClick={() => void run(call(revokeKey, { params: { id: String(k.id) } }))}>
                    revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
