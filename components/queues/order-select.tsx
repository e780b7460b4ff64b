import type { QueueOrder } from "@/lib/api/queues";

const LABELS: Record<QueueOrder, string> = {
  trace: "trace order (oldest trace first, events in order)",
  judge_disagreement: "judge disagreement first (then where judges are least certain; unjudged last)",
};

/** The queue's item order (lib/api/queues.ts QUEUE_ORDERS), for the create and edit forms. */
export function OrderSelect({ value }: { value: string }) {
  return (
    <label className="block">
      Order{" "}
      <select name="order" defaultValue={value} className="mt-1 block w-full min-w-0 rounded border border-slate-300" data-testid="queue-order">
        {(Object.keys(LABELS) as QueueOrder[]).map((o) => <option key={o} value={o}>{LABELS[o]}</option>)}
      </select>
    </label>
  );
}
