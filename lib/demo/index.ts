/**
 * Baton's deterministic trace generator: the demo traces shown on first
 * start, and big synthetic traces for benchmarks. Pure TypeScript.
 */
export { demoTraces } from "./demo-traces";
export { syntheticTrace, syntheticTraces, type SyntheticTraceOptions } from "./synthetic";
export { DEMO_SOURCE } from "./source";
export { Rng, mulberry32, deriveSeed } from "../util/random";
