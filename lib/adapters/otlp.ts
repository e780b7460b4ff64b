/** The OTLP mapping lives in otlp/ (one module per convention family); this path is kept for its importers. */
export { adaptOtlpSpans } from "./otlp/index";
