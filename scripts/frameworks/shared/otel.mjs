// A real OpenTelemetry JS SDK pipeline posting OTLP/HTTP JSON: the tracer
// provider each capture script registers (the framework's own
// instrumentation writes the spans; this only exports them). The packages
// are resolved from the framework's own folder (its pinned package.json).
import { createRequire } from "node:module";
import { join } from "node:path";

export function startTracing(url, service, folder = process.cwd()) {
  const require = createRequire(join(folder, "package.json"));
  const { OTLPTraceExporter } = require("@opentelemetry/exporter-trace-otlp-http");
  const { resourceFromAttributes } = require("@opentelemetry/resources");
  const { SimpleSpanProcessor } = require("@opentelemetry/sdk-trace-base");
  const { NodeTracerProvider } = require("@opentelemetry/sdk-trace-node");
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": service }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  provider.register();
  return provider;
}
