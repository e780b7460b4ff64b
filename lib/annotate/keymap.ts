/**
 * The labeling keyboard map, aligned with Langfuse's annotation queues and
 * Label Studio: ← → previous / next item, ↑ ↓ previous / next field, 1-9
 * the field's options (lib/annotate/options.ts), Enter commits, Ctrl/Cmd +
 * Enter completes the item and goes on, Esc closes overlays (help, comment,
 * skip reason), ? the cheatsheet. Baton's own: c comment, u undo the last
 * label (a queue: clear the field), x skip (a queue asks the reason), r retry failed saves, s / f the whole
 * trace's success / failure, w the decisive error. Pure, so the whole map is unit-tested.
 */
export type KeyAction =
  | { kind: "option"; key: string }
  | { kind: "task"; value: 0 | 1 }
  | { kind: "move"; by: 1 | -1 }
  | { kind: "field"; by: 1 | -1 }
  | { kind: "commit" }
  | { kind: "complete" }
  | { kind: "escape" }
  | { kind: "comment" }
  | { kind: "undo" }
  | { kind: "retry" }
  | { kind: "skip" }
  | { kind: "decisive" }
  | { kind: "help" };

/** Where the keys act: the label page (one trace, saved as you go) or a queue item. */
export type KeyPlace = "label" | "queue";

/** The cheatsheet of a place: `u` and `x` do different things on the label page and in a queue. */
export function keyHelp(place: KeyPlace): readonly [string, string][] {
  return [
    ["1 … 9", "choose that option of the selected field (the numbers are shown on the buttons)"],
    ["Enter", place === "label" ? "save the chosen values of this item" : "next field"],
    ["Ctrl/⌘ + Enter", place === "label" ? "save, complete the item and go to the next one" : "submit the item and take the next one"],
    ...(place === "label" ? [["← →", "previous / next item"] as [string, string]] : []),
    ["↑ ↓", "previous / next field"],
    ["c", "comment on the selected field"],
    place === "label" ? ["u", "undo your last saved label"] : ["u", "clear the selected field's choice"],
    place === "label" ? ["x", "go to the next item without labelling this one (nothing is saved; a queue asks why)"] : ["x", "skip this item, with a reason (1-4 or typed)"],
    ...(place === "label"
      ? ([
          ["s / f", "the whole trace: success / fail (saved at once)"],
          ["w", "the run went wrong here: the selected event is your decisive error of the trace"],
        ] as [string, string][])
      : []),
    ["r", place === "label" ? "retry labels that failed to save" : "submit again after a failed save"],
    ["Esc", "close this help, the comment box or the skip reason"],
    ["?", "show or hide this help"],
  ];
}

/** The action of a key press, or null when the key means nothing here (or a browser shortcut's modifier is held). */
export function keyAction(e: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }): KeyAction | null {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.altKey) return { kind: "complete" };
  if (e.key === "Escape") return { kind: "escape" };
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  if (/^[1-9]$/.test(e.key)) return { kind: "option", key: e.key };
  switch (e.key) {
    case "s":
      return { kind: "task", value: 1 };
    case "f":
      return { kind: "task", value: 0 };
    case "ArrowRight":
      return { kind: "move", by: 1 };
    case "ArrowLeft":
      return { kind: "move", by: -1 };
    case "ArrowDown":
      return { kind: "field", by: 1 };
    case "ArrowUp":
      return { kind: "field", by: -1 };
    case "Enter":
      return { kind: "commit" };
    case "c":
      return { kind: "comment" };
    case "u":
      return { kind: "undo" };
    case "r":
      return { kind: "retry" };
    case "x":
      return { kind: "skip" };
    case "w":
      return { kind: "decisive" };
    case "?":
      return { kind: "help" };
    default:
      return null;
  }
}
