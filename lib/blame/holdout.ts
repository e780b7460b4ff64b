/**
 * An untouched hold-out of the Who&When Algorithm-Generated runs
 * (../shared/data/who_and_when/Algorithm-Generated): the 20 of its 80 files
 * whose SHA-256 of "Algorithm-Generated/<n>.json" (hex) sorts lowest. These
 * runs enter no estimate, no choice of method or setting and no diagnosis
 * (`npm run bench:blame` leaves them out of everything it measures); they are
 * scored once, last, by the estimate's own procedure trained on every other
 * run. Fixed: the rule and the list below are the same thing (a test checks it).
 */
export const HOLDOUT_RULE = 'the 20 Algorithm-Generated files with the lowest sha256("Algorithm-Generated/<n>.json")';

export const HOLDOUT_SIZE = 20;

/** File numbers of the hold-out (Algorithm-Generated/<n>.json). */
export const HOLDOUT_FILES: readonly number[] = [1, 14, 15, 23, 27, 29, 32, 34, 39, 40, 47, 49, 56, 57, 68, 69, 70, 72, 73, 75];

/** Trace ids of the hold-out as the Who&When adapter names them. */
export const HOLDOUT_TRACE_IDS: ReadonlySet<string> = new Set(HOLDOUT_FILES.map((n) => `whowhen-algorithm-generated-${n}`));

export const isHoldout = (traceId: string): boolean => HOLDOUT_TRACE_IDS.has(traceId);
