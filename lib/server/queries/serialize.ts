import type { Event } from "@/lib/generated/prisma/client";
import { eventExtraSchema, eventRewardsSchema } from "@/lib/trace/schema";
import { stored } from "../db/stored";

/** An event as the API returns it: the paper's fields plus extensions, nulls for absent optional fields left out of the paper form. */
export interface ApiEvent {
  seq: number;
  id: string;
  t: number;
  t_end: number | null;
  type: string;
  agent: string;
  role: string | null;
  from: string | null;
  to: string | null;
  tool: string | null;
  content_ref: string | null;
  trusted: boolean | null;
  tokens: number | null;
  status: string | null;
  decision: string | null;
  reason: string | null;
  rewards: Record<string, number> | null;
  extra: Record<string, unknown> | null;
  content_length: number | null;
  content?: string | null;
}

export function apiEvent(e: Event, content?: string | null): ApiEvent {
  const out: ApiEvent = {
    seq: e.seq,
    id: e.eventId,
    t: e.t,
    t_end: e.tEnd,
    type: e.type,
    agent: e.agent,
    role: e.role,
    from: e.fromAgent,
    to: e.toAgent,
    tool: e.tool,
    content_ref: e.contentRef,
    trusted: e.trusted,
    tokens: e.tokens,
    status: e.status,
    decision: e.decision,
    reason: e.reason,
    rewards: e.rewards === null ? null : stored(eventRewardsSchema, e.rewards, () => `event ${JSON.stringify(e.eventId)}: its rewards`),
    extra: e.extra === null ? null : stored(eventExtraSchema, e.extra, () => `event ${JSON.stringify(e.eventId)}: its extra properties`),
    content_length: e.contentLength,
  };
  if (content !== undefined) out.content = content;
  return out;
}
