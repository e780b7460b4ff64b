/**
 * How many body bytes each API route reads (SPEC.md section 7: bodies up to
 * the configured limit arrive whole; over it, a 413 that names the limit).
 * One table for the two places that enforce it: proxy.ts refuses a body
 * whose Content-Length announces more at once, before the upload; the route
 * handlers (lib/server/http.ts) stop reading one byte past it.
 */

export const MIB = 1024 * 1024;

/** JSON bodies of settings, labels and queue actions (every route that reads with parseJsonRequest). */
export const SMALL_BODY_BYTES = MIB;
/** The OTLP receiver's flush call: one trace id. */
export const FLUSH_BODY_BYTES = 64 * 1024;

/** Routes that take whole files or batches: traces, imports, OTLP spans, model calls through the gateway and a project's tokenizer files. */
const LARGE_BODY_ROUTES: readonly RegExp[] = [/^\/api\/traces\/?$/, /^\/api\/import\/?$/, /^\/api\/otel\/v1\/traces\/?$/, /^\/api\/llm\//, /^\/api\/projects\/[^/]+\/tokenizer\/?$/];

/** The most body bytes a request to `path` may carry, given the configured large-body limit (bytes). */
export function bodyLimitFor(path: string, maxBodyBytes: number): number {
  if (!path.startsWith("/api/")) return maxBodyBytes;
  if (LARGE_BODY_ROUTES.some((r) => r.test(path))) return maxBodyBytes;
  if (/^\/api\/otel\/v1\/flush\/?$/.test(path)) return FLUSH_BODY_BYTES;
  return SMALL_BODY_BYTES;
}

/**
 * A Content-Length header's value: a decimal count of bytes, or null when
 * absent. A malformed one is `NaN` (Node's HTTP parser refuses those before
 * any route runs; treated as unknown here).
 */
export function declaredLength(header: string | null): number | null {
  if (header === null) return null;
  return /^\s*\d+\s*$/.test(header) ? Number(header) : Number.NaN;
}

/** The 413's message: the configured limit names its variable and the CLI that streams any size; a route's own small limit says so. */
export function tooLargeMessage(limitBytes: number, maxBodyBytes: number): string {
  if (limitBytes >= maxBodyBytes) {
    return `request body is over the limit of ${Math.round(limitBytes / MIB)} MB (BATON_MAX_BODY_MB); load larger files with npm run ingest, which streams them`;
  }
  const size = limitBytes >= MIB ? `${Math.round(limitBytes / MIB)} MB` : `${Math.round(limitBytes / 1024)} KB`;
  return `request body is over this route's limit of ${size}`;
}
