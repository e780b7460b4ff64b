/**
 * A binary min-heap of small integer ids keyed by a time, for the synthetic
 * generator's event loop: it pops the agent that is ready first. Ties go to
 * the smaller id, so the order is fully deterministic.
 */
export class ReadyQueue {
  private readonly heap: number[] = [];
  private readonly readyAt: number[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(id: number, time: number): void {
    this.readyAt[id] = time;
    this.heap.push(id);
    this.siftUp(this.heap.length - 1);
  }

  /** Removes and returns the id with the earliest time; undefined when empty. */
  pop(): number | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (top === undefined || last === undefined) return undefined;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** The time an id was last pushed with. */
  timeOf(id: number): number {
    return this.readyAt[id] ?? Infinity;
  }

  private before(a: number, b: number): boolean {
    const ta = this.timeOf(a);
    const tb = this.timeOf(b);
    return ta < tb || (ta === tb && a < b);
  }

  private siftUp(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[i]!, heap[parent]!)) return;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < heap.length && this.before(heap[left]!, heap[best]!)) best = left;
      if (right < heap.length && this.before(heap[right]!, heap[best]!)) best = right;
      if (best === i) return;
      [heap[i], heap[best]] = [heap[best]!, heap[i]!];
      i = best;
    }
  }
}
