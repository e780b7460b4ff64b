/**
 * True when a key press goes into something the person is typing in or
 * picking from: a text field, a select or an editable element, of this page
 * or of a frame in it (so no `instanceof`, which differs between frames).
 * Every screen's own shortcuts leave such key presses alone.
 */
export function isTyping(event: KeyboardEvent): boolean {
  const target = event.target as Partial<HTMLElement> | null;
  if (!target || typeof target.tagName !== "string") return false;
  return target.isContentEditable === true || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}
