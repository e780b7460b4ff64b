import "server-only";
import { z } from "zod";
import { datasetRequestSchema } from "@/lib/datasets/request";
import { storedOrNull } from "../db/stored";

/** A snapshot's stored request (the `request` column): what was asked, and the projects it may hold. Parsed, never cast: it decides who sees the snapshot and what it holds. */
export const storedRequestSchema = z.object({ body: datasetRequestSchema, readable: z.array(z.string()).nullable() });
export type StoredRequest = z.infer<typeof storedRequestSchema>;

/** The stored request, or null (logged) when the column does not parse: such a snapshot is shown to nobody and never built. */
export function storedRequest(id: number, value: unknown): StoredRequest | null {
  return storedOrNull(storedRequestSchema, value, `dataset ${id}: its stored request`);
}
