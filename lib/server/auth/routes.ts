import "server-only";
import { notFound } from "../errors";

/** A numeric path id (`/api/admin/users/{id}`); anything else is a 404. */
export function numericId(raw: string, what: string): number {
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw notFound(`${what} ${JSON.stringify(raw)}`);
  return id;
}
