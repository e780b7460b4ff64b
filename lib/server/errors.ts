import type { Problem } from "@/lib/trace/validate";

/** An error that becomes `{"error": {code, message, details}}` with a 4xx status (SPEC.md section 7). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Problem[] = [],
    /** extra response headers (e.g. Retry-After on a 503) */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toJSON() {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

export const invalid = (problems: Problem[], message = `${problems.length} problem(s) in the input`) =>
  new ApiError(400, "invalid_input", message, problems);
export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found`);
