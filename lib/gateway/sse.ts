/**
 * An incremental reader of Server-Sent Events (the streaming form of the
 * chat-completions and Responses APIs): bytes in as they arrive, the `data`
 * of each complete event out. It only reads; the bytes themselves go to the
 * client untouched.
 */
export class SseReader {
  private readonly decoder = new TextDecoder();
  private buffer = "";

  /** The data of every event completed by `chunk` (multi-line data joined with "\n"). */
  push(chunk: Uint8Array): string[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    return this.drain();
  }

  /** Whatever complete event the stream ended with (a last event without its blank line). */
  end(): string[] {
    this.buffer += this.decoder.decode();
    const events = this.drain();
    if (this.buffer.trim() !== "") events.push(...dataOf(this.buffer));
    this.buffer = "";
    return events;
  }

  private drain(): string[] {
    const events: string[] = [];
    for (;;) {
      const match = /\r?\n\r?\n/.exec(this.buffer);
      if (match === null) return events;
      const block = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      events.push(...dataOf(block));
    }
  }
}

function dataOf(block: string): string[] {
  const lines = block.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice(line.startsWith("data: ") ? 6 : 5));
  return lines.length === 0 ? [] : [lines.join("\n")];
}

/** Writes one event as SSE (for a rewritten stream). */
export function sseEvent(data: string): string {
  return `data: ${data}\n\n`;
}
