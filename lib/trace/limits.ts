/**
 * The limits of SPEC.md section 1: beyond them an input is a validation
 * problem with its path, never a server error.
 */

/** Longest identifier (trace_id, task_id, system, project, group_id, event id, agent, role, tool, content_ref), in UTF-16 code units as JSON strings count them. */
export const MAX_ID_LENGTH = 512;

/** Largest magnitude of any number (t, t_end, tokens, cost, costs.*, rewards.*, metrics.*). */
export const MAX_MAGNITUDE = 1e15;

/** Deepest JSON nesting of one trace: the trace object itself is level 1. */
export const MAX_DEPTH = 64;
