import type { PreparedTrace } from "@/lib/ingest/prepare";
import type { ComputedColumns } from "./store";

/** Computed metric columns stored with each trace (SPEC.md section 4). Filled by the compute core. */
export function computedColumns(prepared: PreparedTrace): ComputedColumns {
  return { e1: prepared.reportedE1 };
}
