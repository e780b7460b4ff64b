/**
 * Credit heatmaps, pure: credit JSON in, ready-to-draw model out.
 *
 *   trace + CreditResponse -> creditedTrace -> agent-time | event-family
 *   creditedTrace -> roleSumsOf; [roleSums, ...] -> role-family (across traces)
 *   models -> withSharedDomain | differenceHeatmap (side by side)
 */
export * from "./types";
export { creditedTrace, type CreditedTrace, type CreditedEvent } from "./credited";
export { buildAgentTimeHeatmap } from "./agent-time";
export { buildEventFamilyHeatmap, DEFAULT_EVENT_ROWS, MAX_EVENT_ROWS } from "./event-family";
export { buildRoleFamilyHeatmap, roleSumsInputs, roleSumsOf, ROLE_SUMS_VERSION, type RoleFamilyInput, type TraceRoleSums } from "./role-family";
export { differenceHeatmap, sameGrid, withSharedDomain } from "./compare";
export { symmetricDomain, legendTicks } from "./scale";
export { timeBuckets, DEFAULT_BUCKETS, MAX_BUCKETS, MIN_BUCKETS } from "./buckets";
