/**
 * Query parameters of `GET /api/traces/{id}/graph` (credit's own
 * `method`, `preset`, `normalize` and `w.<family>` are read by the credit
 * parser the credit endpoint uses).
 */
import { z } from "zod";
import { decimalInt, PG_INT_MAX } from "../api/params";
import { CREDIT_FAMILIES_PAGE_MAX, CREDIT_PAGE_MAX, GRAPH_PAGE_MAX } from "./wire";

export const GRAPH_PARTS = ["meta", "events", "credit"] as const;

export const graphQuery = z
  .object({
    part: z.enum(GRAPH_PARTS).default("meta"),
    from: decimalInt(0, PG_INT_MAX).default(0),
    limit: decimalInt(1, PG_INT_MAX).optional(),
    families: z.enum(["0", "1"]).default("0"),
  })
  .transform((q, ctx) => {
    const max = q.part === "credit" ? (q.families === "1" ? CREDIT_FAMILIES_PAGE_MAX : CREDIT_PAGE_MAX) : GRAPH_PAGE_MAX;
    if (q.limit !== undefined && q.limit > max) {
      ctx.addIssue({ code: "custom", path: ["limit"], message: `must be <= ${max} for part=${q.part}${q.part === "credit" ? ` with families=${q.families}` : ""}` });
      return z.NEVER;
    }
    return { part: q.part, from: q.from, limit: q.limit ?? max, families: q.families === "1" };
  });

