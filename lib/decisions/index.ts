/** Orchestration decisions: per-trace features, group divergence, decision analytics. */
export * from "./analytics";
export * from "./buckets";
export * from "./choices";
export * from "./difference";
export * from "./divergence";
export * from "./features";
export * from "./record";
export * from "./query";
export * from "./lanes";
export * from "./view";
