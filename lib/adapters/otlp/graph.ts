import type { EdgeType } from "../../trace/types";
import { AdaptedTraceBuilder, type AdaptedFields, type EventRef, type Parent } from "../emit";
import { pushTo } from "../../util/group";

/**
 * The AdaptedTraceBuilder with the edges it was given remembered, so that
 * edges found after the tree walk (span links, tool call ids) are added
 * only when they are new, go forward in time and close no causal cycle.
 */
export class GuardedTraceBuilder extends AdaptedTraceBuilder {
  private readonly successors = new Map<EventRef, EventRef[]>();
  private readonly edgeKeys = new Set<string>();
  private readonly contents = new Map<EventRef, string>();

  override add(fields: AdaptedFields, ...parents: Parent[]): EventRef {
    const unique = parents.filter(([ref], i) => parents.findIndex(([other]) => other === ref) === i);
    const ref = super.add(fields, ...unique);
    if (typeof fields.content === "string") this.contents.set(ref, fields.content);
    for (const [parent] of unique) this.remember(parent, ref);
    return ref;
  }

  override link(src: EventRef, dst: EventRef, type: EdgeType): void {
    super.link(src, dst, type);
    this.remember(src, dst);
  }

  /** The content an event was added with. */
  contentOf(ref: EventRef): string | undefined {
    return this.contents.get(ref);
  }

  /** Adds the edge when allowed; returns whether it was added. */
  tryLink(src: EventRef, dst: EventRef, type: EdgeType): boolean {
    if (src === dst || this.edgeKeys.has(`${src}>${dst}`)) return false;
    if (this.timeOf(src) > this.timeOf(dst) || this.reaches(dst, src)) return false;
    this.link(src, dst, type);
    return true;
  }

  private remember(src: EventRef, dst: EventRef): void {
    this.edgeKeys.add(`${src}>${dst}`);
    pushTo(this.successors, src, dst);
  }

  private reaches(from: EventRef, to: EventRef): boolean {
    const seen = new Set<EventRef>([from]);
    const stack = [from];
    while (stack.length > 0) {
      const ref = stack.pop()!;
      if (ref === to) return true;
      for (const next of this.successors.get(ref) ?? []) {
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    return false;
  }
}
