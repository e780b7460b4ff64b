/**
 * A lone surrogate or U+0000 in a span (an attribute value, a key) becomes
 * U+FFFD when the spans are staged (SPEC.md section 1, as JSON ingest does):
 * the export is accepted, not refused whole as "unstorable" (exporters do not
 * retry a 400). And a trace whose spans the database still refuses loses only
 * its own spans, reported as refused in the partial success; the other
 * traces of the same request are kept.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { POST as flushHandler } from "@/app/api/otel/v1/flush/route";
import { POST as tracesRoute } from "@/app/api/otel/v1/traces/route";
import { orchestratorRun, toOtlpJson } from "@/lib/adapters/otlp-fixtures";
import { pool, prisma } from "@/lib/server/db/client";
import { params } from "@/scripts/lib/test-http";
import { stopSweeper, sweepSettled } from "./sweeper";

const IDS = { odd: "abcd0000000000000000000000000009", plain: "abcd000000000000000000000000000a", refused: "abcd000000000000000000000000000b" };
const spans = (traceId: string) => orchestratorRun().map((s) => ({ ...s, traceId }));
const post = (path: string, body: string) => new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });

afterEach(async () => {
  await sweepSettled();
  await pool().query("DROP TRIGGER IF EXISTS refuse_one_trace ON otel_spans");
  await prisma().trace.deleteMany({ where: { traceId: { in: Object.values(IDS) } } });
  await prisma().otelTrace.deleteMany({ where: { traceId: { in: Object.values(IDS) } } });
});
afterAll(() => stopSweeper());

describe("OTLP text PostgreSQL cannot store", () => {
  it("a lone surrogate in a value and in a key: 200, the span staged with U+FFFD, the other trace of the request stored too", async () => {
    const odd = spans(IDS.odd);
    odd[0] = { ...odd[0]!, attributes: { ...odd[0]!.attributes, "gen_ai.output.messages": "broken \ud800 answer", "key\udfff": "v\u0000x" } };
    // the surrogate must reach the server as the JSON escape an exporter writes
    const body = JSON.stringify({ resourceSpans: [...toOtlpJson(odd).resourceSpans, ...toOtlpJson(spans(IDS.plain)).resourceSpans] });
    expect(body).toContain("\\ud800");
    const response = await tracesRoute(post("/api/otel/v1/traces", body));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ partialSuccess: {} });
    const staged = await pool().query<{ span: { attributes: Record<string, unknown> } }>("SELECT span FROM otel_spans WHERE trace_id = $1 AND span_id = $2", [IDS.odd, odd[0].spanId]);
    expect(staged.rows[0]!.span.attributes).toMatchObject({ "gen_ai.output.messages": "broken \ufffd answer", "key\ufffd": "v\ufffdx" });

    const flushed = await flushHandler(post("/api/otel/v1/flush", "{}"), params({}));
    const { traces } = (await flushed.json()) as { traces: { trace_id: string; status: string }[] };
    expect(traces.filter((t) => t.trace_id !== IDS.refused).map((t) => [t.trace_id, t.status]).sort()).toEqual([[IDS.odd, "stored"], [IDS.plain, "stored"]]);
  });

  it("a trace the database refuses loses only its own spans (partial success); the others are staged", async () => {
    await pool().query(`CREATE OR REPLACE FUNCTION refuse_one_trace() RETURNS trigger AS $$
      BEGIN IF NEW.trace_id = '${IDS.refused}' THEN RAISE EXCEPTION 'refused value' USING ERRCODE = '22023'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await pool().query("CREATE TRIGGER refuse_one_trace BEFORE INSERT ON otel_spans FOR EACH ROW EXECUTE FUNCTION refuse_one_trace()");
    const body = JSON.stringify({ resourceSpans: [...toOtlpJson(spans(IDS.refused)).resourceSpans, ...toOtlpJson(spans(IDS.plain)).resourceSpans] });
    const response = await tracesRoute(post("/api/otel/v1/traces", body));
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { partialSuccess: { rejectedSpans: number; errorMessage: string } };
    expect(answer.partialSuccess.rejectedSpans).toBe(orchestratorRun().length);
    expect(answer.partialSuccess.errorMessage).toContain(IDS.refused);
    expect(await prisma().otelSpan.count({ where: { traceId: IDS.plain } })).toBe(orchestratorRun().length);
    expect(await prisma().otelSpan.count({ where: { traceId: IDS.refused } })).toBe(0);
  });
});
