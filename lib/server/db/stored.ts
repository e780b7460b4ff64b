import "server-only";
import type { z } from "zod";

/**
 * Values read back from JSON columns (Prisma `Json`, raw `jsonb`) go through
 * the schema they were written with, never a cast: a stored value that does
 * not parse is logged and is an error the caller sees, never a silent
 * decision on a value of the wrong shape.
 */
export class StoredValueError extends Error {}

/** `what` may be a function, for hot paths where the name costs more than the parse. */
const named = (what: string | (() => string)) => (typeof what === "string" ? what : what());

function problem(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return "invalid";
  const path = first.path.length > 0 ? `$.${first.path.map(String).join(".")}` : "$";
  return `${path}: ${first.message}`;
}

/** The parsed value, or null when it does not parse (logged as `what`): for callers that deny or recompute on a bad value. */
export function storedOrNull<S extends z.ZodType>(schema: S, value: unknown, what: string | (() => string)): z.output<S> | null {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  console.error(`[baton] ${named(what)} does not parse (${problem(parsed.error)})`);
  return null;
}

/** The parsed value; one that does not parse is logged and thrown (StoredValueError naming `what`). */
export function stored<S extends z.ZodType>(schema: S, value: unknown, what: string | (() => string)): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = `${named(what)} does not parse (${problem(parsed.error)})`;
  console.error(`[baton] ${message}`);
  throw new StoredValueError(message);
}
