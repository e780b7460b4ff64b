/** Written into `metadata.source` of every generated trace. */
export const DEMO_SOURCE = "baton-demo-generator";
