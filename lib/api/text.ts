/**
 * Text PostgreSQL can store and index: no U+0000, no lone UTF-16
 * surrogate (both make the driver or the server fail, a 500 instead of a
 * 400/404). Used for ids from the path and names in small JSON bodies.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what must be found
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

/** SPEC.md section 1: identifiers are at most 512 characters. */
export const MAX_ID_LENGTH = 512;

export const isStorableId = (id: string): boolean => id.length > 0 && id.length <= MAX_ID_LENGTH && isStorableText(id);

/**
 * An id from a path segment, decoded; null when it can name nothing stored:
 * malformed %-escapes (`%E0%A4%A`), U+0000 or a lone surrogate (which would
 * make PostgreSQL fail, a 500 instead of the 404 of an unknown id).
 */
export function decodeSegment(segment: string): string | null {
  try {
    const decoded = decodeURIComponent(segment);
    return isStorableText(decoded) ? decoded : null;
  } catch {
    return null;
  }
}
