"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { call, describeFailure, formBody } from "@/lib/api/client";
import { editQueue } from "@/lib/api/contracts/queues";
import { formText } from "@/lib/api/send";
import { QUEUE_TARGETS } from "@/lib/api/queues";
import { OrderSelect } from "./order-select";

/** Edit a queue (name, families, blind, item order), close or reopen it (project admins; the API refuses others with a 403 shown here). */
export function QueueSettings({ queueId, name, families, blind, closed, order }: { queueId: number; name: string; families: string[]; blind: boolean; closed: boolean; order: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const patch = async (body: Record<string, unknown>) => {
    const result = await call(editQueue, { params: { id: String(queueId) }, body: formBody(editQueue, body) });
    if (!result.ok) return setError(describeFailure(result));
    setError(null);
    router.refresh();
  };
  return (
    <details className="rounded border border-slate-200 bg-white p-3 text-sm" data-testid="queue-settings">
      <summary className="cursor-pointer font-semibold">Edit, close or reopen</summary>
      <form
        className="mt-2 space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          void patch({ name: formText(form, "name"), families: form.getAll("families"), blind: form.get("blind") === "on", order: formText(form, "order") });
        }}
      >
        <label className="block">Name <input name="name" defaultValue={name} className="ml-2 rounded border border-slate-300 px-2 py-0.5" /></label>
        <div>{QUEUE_TARGETS.map((f) => <label key={f} className="mr-3 inline-block"><input type="checkbox" name="families" value={f} defaultChecked={families.includes(f)} /> {f}</label>)}</div>
        <label className="block"><input type="checkbox" name="blind" defaultChecked={blind} /> Blind</label>
        <OrderSelect value={order} />
        <div className="flex gap-2">
          <button type="submit" className="rounded bg-slate-900 px-2 py-1 text-white hover:bg-slate-700">Save changes</button>
          <button type="button" onClick={() => void patch({ closed: !closed })} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100" data-testid="queue-close-toggle">
            {closed ? "Reopen the queue" : "Close the queue"}
          </button>
        </div>
        {error && <p className="text-rose-700" data-testid="queue-settings-error">{error}</p>}
      </form>
    </details>
  );
}
