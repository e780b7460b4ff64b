/**
 * True when a key press belongs to what has focus rather than to the
 * labeling shortcuts: a text field, a select, an editable element, or
 * anything inside an open dialog (its own buttons and inputs take the keys).
 */
export function keyBelongsToFocus(e: KeyboardEvent): boolean {
  const target = e.target instanceof HTMLElement ? e.target : null;
  if (!target) return false;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.isContentEditable) return true;
  return target.closest("[role=dialog], dialog") !== null;
}
