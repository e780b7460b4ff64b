import { createStore } from "zustand";
import { sendJson } from "@/lib/api/send";

/** State of one queue-work view: the held item, the chosen values and comments, the save status. */
export interface QueueItem {
  id: number;
  position: number;
  trace_id: string;
  event_id: string | null;
  task_id?: string;
  /** the queue's families that this unit anchors (all of them for a whole trace) */
  families: string[];
  /** the queue asks for this trace's decisive error */
  decisive_error?: boolean;
  /** events in the trace (the decisive-error unit lists them) */
  event_count?: number;
  event?: { type: string } | null;
  others: { family: string; value: number; annotator: string }[];
}

export type WorkStatus =
  | { kind: "idle" }
  | { kind: "saving" }
  | { kind: "failed"; message: string }
  /** the caller may read the queue but not label in it (403) */
  | { kind: "forbidden"; message: string }
  | { kind: "closed"; message: string };

export interface QueueWorkState {
  /** undefined until the first answer; null when nothing is left */
  item: QueueItem | null | undefined;
  values: Record<string, number>;
  comments: Record<string, string>;
  commenting: string | null;
  field: number;
  status: WorkStatus;
  overlay: "help" | "skip" | null;
  done: number;
  /** the caller has named this trace's decisive error (a decisive-error item can then be submitted without labels) */
  decisiveNamed: boolean;
  setDecisiveNamed: (named: boolean) => void;
  take(): Promise<void>;
  choose(family: string, value: number): void;
  clear(family: string): void;
  setComment(family: string, text: string): void;
  setCommenting(family: string | null): void;
  setField(field: number): void;
  moveField(by: number): void;
  submit(): Promise<void>;
  skip(reason: string): Promise<void>;
  setOverlay(overlay: "help" | "skip" | null): void;
}

export function createQueueWorkStore(queueId: number) {
  return createStore<QueueWorkState>()((set, get) => {
    const call = async (url: string, body?: unknown): Promise<boolean> => {
      set({ status: { kind: "saving" } });
      const result = await sendJson<{ item?: QueueItem | null; next?: QueueItem | null }>("POST", url, body);
      if (!result.ok) {
        if (result.status === 403) set({ status: { kind: "forbidden", message: result.message }, item: get().item ?? null });
        else if (result.status === 409 && /closed/.test(result.message)) set({ status: { kind: "closed", message: result.message }, item: get().item ?? null });
        else set({ status: { kind: "failed", message: result.message } });
        return false;
      }
      set({ item: result.data.next ?? result.data.item ?? null, values: {}, comments: {}, commenting: null, field: 0, status: { kind: "idle" }, overlay: null, decisiveNamed: false });
      return true;
    };
    return {
      item: undefined,
      values: {},
      comments: {},
      commenting: null,
      field: 0,
      status: { kind: "idle" },
      overlay: null,
      done: 0,
      decisiveNamed: false,
      setDecisiveNamed: (decisiveNamed) => set({ decisiveNamed }),
      take: async () => {
        await call(`/api/queues/${queueId}/next`);
      },
      choose: (family, value) => set((s) => ({ values: { ...s.values, [family]: value } })),
      clear: (family) =>
        set((s) => {
          const values = { ...s.values };
          delete values[family];
          return { values };
        }),
      setComment: (family, text) => set((s) => ({ comments: { ...s.comments, [family]: text } })),
      setCommenting: (commenting) => set({ commenting }),
      setField: (field) => set({ field }),
      moveField: (by) => set((s) => {
        const n = Math.max(1, s.item?.families.length ?? 1);
        return { field: (s.field + by + n) % n, commenting: null };
      }),
      submit: async () => {
        const { item, values, comments, decisiveNamed } = get();
        const labels = Object.entries(values).map(([family, value]) => ({ family, value, ...(comments[family]?.trim() && { comment: comments[family].trim() }) }));
        // a decisive-error item is answered once the caller's decisive error is saved (the server checks it)
        if (!item || (labels.length === 0 && !(item.decisive_error && decisiveNamed))) return;
        if (await call(`/api/queues/${queueId}/items/${item.id}/submit`, { labels })) set((s) => ({ done: s.done + 1 }));
      },
      skip: async (reason) => {
        const { item } = get();
        if (item) await call(`/api/queues/${queueId}/items/${item.id}/skip`, reason ? { reason } : {});
      },
      setOverlay: (overlay) => set({ overlay }),
    };
  });
}
