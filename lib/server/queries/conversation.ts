import "server-only";
import { reader } from "@/lib/server/db/read";
import { apiEvent, type ApiEvent } from "./serialize";

export interface ConversationPage {
  events: ApiEvent[];
  /** seq of the first event shown */
  from: number;
  total: number;
  /**
   * seq of the run's final answer: the last event an importer marked
   * `final_answer` (tau-bench: the agent's last turn), else the terminal event
   * (SPEC.md section 1: the last aggregate, else the last event)
   */
  terminal_seq: number | null;
  limit: number;
}

/**
 * One page of the conversation view: events in event order with their
 * content. `at` (a seq, e.g. a search hit) picks the page that holds it.
 */
export async function conversationPage(traceDbId: number, total: number, opts: { at?: number; from?: number; limit: number }): Promise<ConversationPage> {
  const from = opts.at !== undefined ? Math.floor(opts.at / opts.limit) * opts.limit : Math.max(0, opts.from ?? 0);
  const range = { traceId: traceDbId, seq: { gte: from, lt: from + opts.limit } };
  const [events, contents, lastAggregate, marked] = await Promise.all([
    (await reader()).prisma.event.findMany({ where: range, orderBy: { seq: "asc" } }),
    (await reader()).prisma.eventContent.findMany({ where: range }),
    (await reader()).prisma.event.findFirst({ where: { traceId: traceDbId, type: "aggregate" }, orderBy: { seq: "desc" }, select: { seq: true } }),
    (await reader()).prisma.event.findFirst({ where: { traceId: traceDbId, extra: { path: ["final_answer"], equals: true } }, orderBy: { seq: "desc" }, select: { seq: true } }),
  ]);
  const bySeq = new Map(contents.map((c) => [c.seq, c.content]));
  return {
    events: events.map((e) => apiEvent(e, bySeq.get(e.seq) ?? null)),
    from,
    total,
    terminal_seq: marked?.seq ?? lastAggregate?.seq ?? (total > 0 ? total - 1 : null),
    limit: opts.limit,
  };
}
