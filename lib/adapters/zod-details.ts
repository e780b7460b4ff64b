import type { z } from "zod";
import { jsonPath } from "../trace/validate";

/** A zod error as "<json path>: <message>" lines, for AdapterInputError. */
export function zodDetails(error: z.ZodError, base = "$"): string[] {
  return error.issues.map((issue) => `${jsonPath(base, issue.path)}: ${issue.message}`);
}
