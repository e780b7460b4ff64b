import { z } from "zod";
import { TOPOLOGIES } from "@/lib/trace/types";
import { cursorParam, decimalInt, filterText } from "./params";

/** Query parameters of `GET /api/traces` and the trace list page (SPEC.md section 7). */
export const VERDICTS = ["premature", "late", "unknown", "ok"] as const;

const optionalText = filterText.optional();

export const traceListQuery = z.object({
  project: optionalText,
  system: optionalText,
  task_id: optionalText,
  group_id: optionalText,
  topology: z.enum(TOPOLOGIES).optional(),
  verdict: z.enum(VERDICTS).optional(),
  q: optionalText,
  cursor: cursorParam.optional(),
  limit: decimalInt(1, 500).default(50),
});
export type TraceListQuery = z.infer<typeof traceListQuery>;

export const eventPageQuery = z.object({
  cursor: cursorParam.optional(),
  limit: decimalInt(1, 5000).default(500),
  content: z.enum(["0", "1"]).default("0"),
});

/** Reads URLSearchParams into a plain object, dropping empty values (an empty filter means no filter). */
export function searchParamsObject(params: URLSearchParams | Record<string, string | string[] | undefined>): Record<string, string> {
  // a plain object (pages hand it to client components); `__proto__` is no parameter of any route, so it is ignored like any unknown one
  const out: Record<string, string> = {};
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  for (const [key, value] of entries) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== "" && key !== "__proto__") out[key] = first;
  }
  return out;
}
