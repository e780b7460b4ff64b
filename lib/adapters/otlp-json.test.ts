import { describe, expect, it } from "vitest";
import { collect, edgeTypes, eventTypes } from "./fixtures";
import { adaptOtlpPayloads } from "./otlp-export";
import { orchestratorRun, span, toOtlpJson, TRACE } from "./otlp-fixtures";
import { hexId, readOtlpJson } from "./otlp-json";
import { decodeTraceRequest, encodeTraceRequest } from "./otlp-protobuf";
import { AdapterInputError } from "./types";

const SAMPLE = "lib/adapters/samples/otlp-orchestrator.json";

describe("readOtlpJson", () => {
  it("flattens resource and scope into each span, attribute values to plain JSON", () => {
    const request = {
      resourceSpans: [{
        resource: { attributes: [{ key: "service.name", value: { stringValue: "svc" } }] },
        scopeSpans: [{
          scope: { name: "lib", version: "1.2" },
          spans: [{
            traceId: TRACE.toUpperCase(), spanId: "00f067aa0ba902b7", parentSpanId: "", name: "chat", kind: "SPAN_KIND_CLIENT",
            startTimeUnixNano: "1700000000000000001", endTimeUnixNano: 1700000000500000000,
            attributes: [
              { key: "i", value: { intValue: "42" } }, { key: "big", value: { intValue: "9007199254740993" } }, { key: "d", value: { doubleValue: 0.5 } },
              { key: "b", value: { boolValue: false } }, { key: "arr", value: { arrayValue: { values: [{ stringValue: "x" }, { intValue: 1 }] } } },
              { key: "kv", value: { kvlistValue: { values: [{ key: "k", value: { stringValue: "v" } }] } } }, { key: "empty", value: {} },
            ],
            status: { code: "STATUS_CODE_ERROR", message: "boom" },
          }],
        }],
      }],
    };
    expect(readOtlpJson(request)).toEqual({
      ok: true,
      rejected: [],
      spans: [{
        traceId: TRACE, spanId: "00f067aa0ba902b7", name: "chat", kind: 3,
        startTimeUnixNano: "1700000000000000001", endTimeUnixNano: "1700000000500000000",
        attributes: { i: 42, big: "9007199254740993", d: 0.5, b: false, arr: ["x", 1], kv: { k: "v" }, empty: null },
        events: [], links: [], status: { code: 2, message: "boom" }, resource: { "service.name": "svc" }, scope: { name: "lib", version: "1.2" },
      }],
    });
  });

  it("refuses a body that is not an export request, and rejects spans with invalid ids alone", () => {
    expect(readOtlpJson({ spans: [] })).toEqual({ ok: false, problems: ["$.resourceSpans: Invalid input: expected array, received undefined"] });
    const good = toOtlpJson([span({ id: "s1", name: "chat", start: 0, end: 1 })]);
    const spans = (good.resourceSpans[0] as { scopeSpans: { spans: Record<string, unknown>[] }[] }).scopeSpans[0]!.spans;
    spans.push({ ...spans[0], spanId: "0000000000000000" }, { ...spans[0], traceId: "abc" });
    const read = readOtlpJson(good);
    expect(read.ok && read.spans.length).toBe(1);
    expect(read.ok && read.rejected).toEqual([
      '$.resourceSpans[0].scopeSpans[0].spans[1]: invalid spanId "0000000000000000" (8 bytes in hex, not all zero)',
      '$.resourceSpans[0].scopeSpans[0].spans[2]: invalid traceId "abc" (16 bytes in hex, not all zero)',
    ]);
  });

  it("accepts base64 ids from exporters that do not follow OTLP/JSON's hex rule", () => {
    expect(hexId(Buffer.from(TRACE, "hex").toString("base64"), 16)).toBe(TRACE);
    expect(hexId("AAAAAAAAAAA=", 8)).toBeNull();
  });
});

describe("OTLP/protobuf", () => {
  it("decodes an ExportTraceServiceRequest into the OTLP/JSON shape, losing nothing Baton reads", () => {
    const json = toOtlpJson(orchestratorRun());
    const fromProtobuf = readOtlpJson(decodeTraceRequest(encodeTraceRequest(json)));
    expect(fromProtobuf).toEqual(readOtlpJson(json));
  });

  it("throws on bytes that are not a request", () => {
    expect(() => decodeTraceRequest(Uint8Array.from([0x0a, 0xff, 0xff]))).toThrow();
  });
});

describe("OTLP/JSON files (--format otlp)", () => {
  it("reads the sample export into one valid trace", async () => {
    const [trace, ...more] = await collect("otlp", SAMPLE);
    expect(more).toEqual([]);
    expect(eventTypes(trace!)).toEqual({ orchestrator_decision: 1, spawn: 2, tool_call: 2, tool_result: 2, return: 2, aggregate: 1 });
    expect(edgeTypes(trace!)).toEqual({ causal: 5, spawn: 2, return: 3, tool_dependency: 2, temporal: 2, aggregate: 1 });
    expect(trace!.metadata!.source).toMatchObject({ format: "otlp", file: SAMPLE });
  });

  it("joins a trace's spans spread over JSON lines, and separates traces", async () => {
    const spans = orchestratorRun();
    const other = { ...span({ id: "z", name: "chat", start: 0, end: 1, attrs: { "gen_ai.operation.name": "chat" } }), traceId: "0af7651916cd43dd8448eb211c80319c" };
    const lines = [toOtlpJson(spans.slice(0, 4)), toOtlpJson([other]), toOtlpJson(spans.slice(4))].map((p) => JSON.stringify(p)).join("\n");
    const traces = await collect("otlp", { path: "export.jsonl", content: lines });
    expect(traces.map((t) => [t.trace_id, t.events.length])).toEqual([[TRACE, 10], ["0af7651916cd43dd8448eb211c80319c", 1]]);
  });

  it("names the line of malformed JSON and refuses invalid spans", () => {
    expect(() => adaptOtlpPayloads([{ resourceSpans: [] }], "e.json")).toThrow(/e\.json is not an OpenTelemetry OTLP\/JSON trace export .*no spans/);
    const bad = toOtlpJson([{ ...span({ id: "s1", name: "chat", start: 0, end: 1 }), spanId: "zz" }]);
    expect(() => adaptOtlpPayloads([bad], "b.json")).toThrow(AdapterInputError);
  });
});
