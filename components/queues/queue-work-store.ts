import { createStore } from "zustand";
import { call, type ApiResult } from "@/lib/api/client";
import type { Family } from "@/lib/trace/types";
import { nextQueueItem, QUEUE_CLOSED, skipQueueItem, submitQueueItem, type QueueItem } from "@/lib/api/contracts/queues";

export type { QueueItem };

/** State of one queue-work view: the held item, the chosen values and comments, the save status. */

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
    /** Takes the answer of next, submit or skip: the item handed out, or what went wrong (a closed queue by its error code). */
    const settle = async (sent: Promise<ApiResult<{ item?: QueueItem | null; next?: QueueItem | null }>>): Promise<boolean> => {
      set({ status: { kind: "saving" } });
      const result = await sent;
      if (!result.ok) {
        if (result.status === 403) set({ status: { kind: "forbidden", message: result.message }, item: get().item ?? null });
        else if (result.code === QUEUE_CLOSED) set({ status: { kind: "closed", message: result.message }, item: get().item ?? null });
        else set({ status: { kind: "failed", message: result.message } });
        return false;
      }
      set({ item: result.data.next ?? result.data.item ?? null, values: {}, comments: {}, commenting: null, field: 0, status: { kind: "idle" }, overlay: null, decisiveNamed: false });
      return true;
    };
    const id = String(queueId);
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
        await settle(call(nextQueueItem, { params: { id } }));
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
        const labels = Object.entries(values).map(([family, value]) => ({ family: family as Family, value, ...(comments[family]?.trim() && { comment: comments[family].trim() }) }));
        // a decisive-error item is answered once the caller's decisive error is saved (the server checks it)
        if (!item || (labels.length === 0 && !(item.decisive_error && decisiveNamed))) return;
        if (await settle(call(submitQueueItem, { params: { id, itemId: String(item.id) }, body: { labels } }))) set((s) => ({ done: s.done + 1 }));
      },
      skip: async (reason) => {
        const { item } = get();
        if (item) await settle(call(skipQueueItem, { params: { id, itemId: String(item.id) }, body: reason ? { reason } : {} }));
      },
      setOverlay: (overlay) => set({ overlay }),
    };
  });
}
