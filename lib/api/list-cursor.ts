/**
 * Keyset cursors of the trace list. A cursor names one row by its position
 * in the chosen order: `<id>` when the list is in id order (newest first, the
 * default and the API's original cursors), else `<value>~<id>` with the sort
 * column's value (`null` when the row has none; nulls sort last either way).
 */
export const LIST_CURSOR_PATTERN = /^(\d+|(null|-?\d+(\.\d+)?([eE][+-]?\d+)?)~\d+)$/;

export interface ListCursor {
  /** the sort column's value; undefined when sorting by id */
  value?: number | null;
  id: number;
}

export function encodeListCursor(c: ListCursor): string {
  if (c.value === undefined) return String(c.id);
  return `${c.value === null ? "null" : String(c.value)}~${c.id}`;
}

/** Reads a cursor that LIST_CURSOR_PATTERN accepted. */
export function decodeListCursor(text: string): ListCursor {
  const at = text.indexOf("~");
  if (at < 0) return { id: Number(text) };
  const value = text.slice(0, at);
  return { value: value === "null" ? null : Number(value), id: Number(text.slice(at + 1)) };
}
