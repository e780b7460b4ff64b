import { describe, expect, it } from "vitest";
import { bodyLimitFor, declaredLength, FLUSH_BODY_BYTES, MIB, SMALL_BODY_BYTES, tooLargeMessage } from "./body-limits";

describe("body limits", () => {
  const max = 100 * MIB;
  it("routes that take files and batches read up to the configured limit; settings and labels 1 MB; the OTLP flush 64 KB", () => {
    for (const path of ["/api/traces", "/api/traces/", "/api/import", "/api/otel/v1/traces", "/api/llm/v1/chat/completions", "/api/llm/run/k/v1/responses"]) expect(bodyLimitFor(path, max), path).toBe(max);
    for (const path of ["/api/traces/x/annotations", "/api/datasets", "/api/queues", "/api/traces/x", "/api/importer"]) expect(bodyLimitFor(path, max), path).toBe(SMALL_BODY_BYTES);
    expect(bodyLimitFor("/api/otel/v1/flush", max)).toBe(FLUSH_BODY_BYTES);
    expect(bodyLimitFor("/upload", max)).toBe(max);
  });

  it("a Content-Length is a decimal count; anything else is unknown (NaN), absence null", () => {
    expect(declaredLength(null)).toBeNull();
    expect(declaredLength("10485761")).toBe(10_485_761);
    expect(declaredLength("0x10")).toBeNaN();
    expect(declaredLength("-1")).toBeNaN();
  });

  it("the 413 names the configured limit and the CLI, or the route's own limit", () => {
    expect(tooLargeMessage(max, max)).toBe("request body is over the limit of 100 MB (BATON_MAX_BODY_MB); load larger files with npm run ingest, which streams them");
    expect(tooLargeMessage(SMALL_BODY_BYTES, max)).toBe("request body is over this route's limit of 1 MB");
    expect(tooLargeMessage(FLUSH_BODY_BYTES, max)).toBe("request body is over this route's limit of 64 KB");
  });
});
