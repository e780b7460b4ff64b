import { createStore } from "zustand";
import { sendJson } from "@/lib/api/send";

/** State of one queue-work view: the held item, the chosen values, the save status. */
export interface QueueItem {
  id: number;
  position: number;
  trace_id: string;
  event_id: string | null;
  task_id?: string;
  event: { id: string; seq: number; t: number; type: string; agent: string; role: string | null; from: string | null; to: string | null; tool: string | null; decision: string | null; status: string | null; content: string | null } | null;
  others: { family: string; value: number; annotator: string }[];
}

export type WorkStatus = { kind: "idle" } | { kind: "saving" } | { kind: "failed"; message: string };

export interface QueueWorkState {
  /** undefined until the first answer; null when nothing is left */
  item: QueueItem | null | undefined;
  values: Record<string, number>;
  family: number;
  status: WorkStatus;
  help: boolean;
  done: number;
  take(): Promise<void>;
  setValue(value: number): void;
  moveFamily(by: number): void;
  submit(): Promise<void>;
  skip(): Promise<void>;
  toggleHelp(): void;
}

export function createQueueWorkStore(queueId: number, families: readonly string[]) {
  return createStore<QueueWorkState>()((set, get) => {
    const call = async (url: string, body?: unknown): Promise<boolean> => {
      set({ status: { kind: "saving" } });
      const result = await sendJson<{ item?: QueueItem | null; next?: QueueItem | null }>("POST", url, body);
      if (!result.ok) {
        set({ status: { kind: "failed", message: result.message } });
        return false;
      }
      set({ item: result.data.next ?? result.data.item ?? null, values: {}, family: 0, status: { kind: "idle" } });
      return true;
    };
    return {
      item: undefined,
      values: {},
      family: 0,
      status: { kind: "idle" },
      help: false,
      done: 0,
      take: async () => {
        await call(`/api/queues/${queueId}/next`);
      },
      setValue: (value) => set((s) => ({ values: { ...s.values, [families[s.family]!]: value } })),
      moveFamily: (by) => set((s) => ({ family: (s.family + by + families.length) % families.length })),
      submit: async () => {
        const { item, values } = get();
        const labels = Object.entries(values).map(([family, value]) => ({ family, value }));
        if (!item || labels.length === 0) return;
        if (await call(`/api/queues/${queueId}/items/${item.id}/submit`, { labels })) set((s) => ({ done: s.done + 1 }));
      },
      skip: async () => {
        const { item } = get();
        if (item) await call(`/api/queues/${queueId}/items/${item.id}/skip`);
      },
      toggleHelp: () => set((s) => ({ help: !s.help })),
    };
  });
}
