/**
 * The labeling keyboard map (issue 6): 1-5 -> -1, -0.5, 0, 0.5, 1; s / f ->
 * trace-level task success / failure; left / right move between events;
 * up / down between families; Enter saves and goes on; r retries failed
 * saves; ? toggles the help. Pure, so the whole map is unit-tested.
 */
export type KeyAction =
  | { kind: "value"; value: number }
  | { kind: "task"; value: 0 | 1 }
  | { kind: "move"; by: 1 | -1 }
  | { kind: "family"; by: 1 | -1 }
  | { kind: "save" }
  | { kind: "retry" }
  | { kind: "skip" }
  | { kind: "help" };

export const VALUE_KEYS: Readonly<Record<string, number>> = { "1": -1, "2": -0.5, "3": 0, "4": 0.5, "5": 1 };

export const KEY_HELP: readonly [string, string][] = [
  ["1 2 3 4 5", "value −1, −0.5, 0, 0.5, 1 for the selected family"],
  ["Enter", "save the value and go to the next event"],
  ["← →", "previous / next event"],
  ["↑ ↓", "previous / next family"],
  ["s / f", "the whole trace: task success / failure (saved at once)"],
  ["r", "retry failed saves"],
  ["x", "in a queue: skip this item"],
  ["?", "show or hide this map"],
];

/** The action of a key press, or null when the key means nothing here (or a modifier is held). */
export function keyAction(e: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }): KeyAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const value = VALUE_KEYS[e.key];
  if (value !== undefined) return { kind: "value", value };
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
      return { kind: "family", by: 1 };
    case "ArrowUp":
      return { kind: "family", by: -1 };
    case "Enter":
      return { kind: "save" };
    case "r":
      return { kind: "retry" };
    case "x":
      return { kind: "skip" };
    case "?":
      return { kind: "help" };
    default:
      return null;
  }
}
