import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as ingest } from "@/app/api/traces/route";
import { computeMetrics } from "@/lib/metrics";
import { prisma } from "@/lib/server/db/client";
import { loadTrace } from "@/lib/server/queries/load-trace";
import { exampleTrace } from "@/scripts/lib/test-auth";
import { jsonRequest, params } from "@/scripts/lib/test-http";

/*
 * The trace the compute core gets back from the store: every event's
 * content ("all", the export), none, or the messages' only (the default:
 * message_redundancy keys on it and nothing else the core reads does).
 */
const id = "load-content";
const CONTENT: Record<string, string> = { e4: "the same words", e5: '{"query":"baton"}', e6: "<b>3 results</b>", e8: "final answer: 42" };

let traceId = "";
beforeAll(async () => {
  const trace = exampleTrace(id) as { trace_id: string; events: Record<string, unknown>[] };
  traceId = trace.trace_id;
  // a second message carrying the same words as e4: message_redundancy is 1/2 only when content was loaded
  // (e4's content_ref is dropped: a content_ref, when there is one, is the message's key instead)
  const withContent = trace.events.map(({ content_ref: _ref, ...e }) => ({ ...e, ...(CONTENT[e.id as string] && { content: CONTENT[e.id as string] }) }));
  const events = [...withContent, { id: "e9", t: 9, type: "message", agent: "planner_1", from: "planner_1", to: "executor_1", content: "The same  words " }];
  expect((await ingest(jsonRequest("/api/traces", { ...trace, events }), params({}))).status).toBe(201);
});
afterAll(async () => {
  await prisma().trace.deleteMany({ where: { traceId } });
});

const contentOf = (trace: { events: { id: string; content?: string }[] }) => Object.fromEntries(trace.events.filter((e) => e.content !== undefined).map((e) => [e.id, e.content]));

describe("loadTrace: which events' content comes back", () => {
  it("by default the messages' content only, and the redundancy it gives", async () => {
    const trace = await loadTrace(traceId);
    expect(contentOf(trace)).toEqual({ e4: "the same words", e9: "The same  words " });
    expect(trace.events.map((e) => e.id)).toEqual(["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9"]);
    // hand-computed: 2 messages, the second repeats the first's words (case and spacing aside) -> 1 - 1/2
    expect(computeMetrics(trace).e3.message_redundancy).toBe(0.5);
  });
  it('"all": every event\'s content; "none": nobody\'s', async () => {
    expect(contentOf(await loadTrace(traceId, { content: "all" }))).toEqual({ ...CONTENT, e9: "The same  words " });
    expect(contentOf(await loadTrace(traceId, { content: "none" }))).toEqual({});
  });
});
