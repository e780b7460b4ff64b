/**
 * OTLP spans -> orchestration traces. One module per convention family
 * (families/), the tree rules (classify.ts), the run and turn mapping
 * (map.ts, turns.ts). docs/otlp.md describes the mapping.
 */
export { otlpSpansToTrace } from "./map";
export { classifySpan } from "./classify";
export type { Classified, Family, Role } from "./model";
