/** Small statistics for aggregates and annotator agreement. Pure functions, no dependencies. */
export * from "./krippendorff";
export * from "./summary";
export * from "./wilson";
