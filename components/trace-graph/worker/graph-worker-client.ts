/**
 * The main thread's side of the layout worker: typed requests with ids, one
 * promise per request. The newest request of a kind wins: an older one
 * resolves to null once superseded (whether or not the worker already
 * answered it), so a slow answer can never overwrite a newer view.
 */
import type { WorkerKind, WorkerRequest, WorkerResponse, WorkerResults } from "@/lib/graph-view/protocol";

type Payload<K extends WorkerKind> = K extends WorkerKind ? Omit<Extract<WorkerRequest, { kind: K }>, "id"> : never;

interface Pending {
  kind: WorkerKind;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export class GraphWorkerClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly latest = new Map<WorkerKind, number>();
  /** Called as pages of events arrive during a load. */
  onProgress: ((loaded: number, total: number) => void) | null = null;

  constructor() {
    this.worker = new Worker(new URL("./graph.worker.ts", import.meta.url));
    this.worker.onmessage = (event: MessageEvent<WorkerResponse>) => this.receive(event.data);
    this.worker.onerror = (event) => {
      for (const p of this.pending.values()) p.reject(new Error(event.message || "the layout worker failed"));
      this.pending.clear();
    };
  }

  /** Sends a request; resolves with its result, or null if a newer request of the same kind superseded it. */
  request<K extends WorkerKind>(payload: Payload<K> & { kind: K }): Promise<WorkerResults[K] | null> {
    const id = this.nextId++;
    const kind = payload.kind;
    const previous = this.latest.get(kind);
    if (previous !== undefined) this.settle(previous, null);
    this.latest.set(kind, id);
    return new Promise<WorkerResults[K] | null>((resolve, reject) => {
      this.pending.set(id, { kind, resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...payload, id });
    });
  }

  terminate(): void {
    this.worker.terminate();
    for (const id of [...this.pending.keys()]) this.settle(id, null);
  }

  private receive(message: WorkerResponse): void {
    if (message.status === "progress") {
      if (this.latest.get("load") === message.id) this.onProgress?.(message.loaded, message.total);
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    if (message.status === "error") {
      this.pending.delete(message.id);
      pending.reject(new Error(message.message));
    } else {
      this.settle(message.id, message.status === "ok" ? message.result : null);
    }
  }

  private settle(id: number, value: unknown): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    pending.resolve(this.latest.get(pending.kind) === id ? value : null);
  }
}
