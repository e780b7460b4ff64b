"use client";

import { useEffect, useEffectEvent } from "react";
import { keyAction, type KeyAction } from "@/lib/annotate/keymap";
import { isTyping } from "@/components/typing";

interface Options<A> {
  /** false: no keys (e.g. the person may not label here) */
  enabled?: boolean;
  /**
   * Whether keys pressed with focus inside a dialog still count: false (the
   * default) leaves them to the dialog's own buttons and inputs; a screen
   * whose own overlay is open passes true (or a function saying so).
   */
  inDialogs?: boolean | (() => boolean);
  /** What a key press means (default: the labeling keymap, lib/annotate/keymap.ts); null: nothing. */
  actionOf?: (event: KeyboardEvent) => A | null;
}

/**
 * The labeling screens' keyboard (the label page, a queue item, their
 * decisive-error panels): `onKey` gets each key press that means something,
 * never one typed into a field (isTyping) nor, unless `inDialogs`, one
 * pressed inside a dialog.
 */
export function useLabelKeys<A = KeyAction>(onKey: (action: A, event: KeyboardEvent) => void, options: Options<A> = {}): void {
  const { enabled = true } = options;
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (isTyping(event)) return;
    const action = (options.actionOf ?? (keyAction as (e: KeyboardEvent) => A | null))(event);
    if (action === null) return;
    const inDialogs = typeof options.inDialogs === "function" ? options.inDialogs() : (options.inDialogs ?? false);
    if (!inDialogs && event.target instanceof Element && event.target.closest("[role=dialog], dialog") !== null) return;
    onKey(action, event);
  });
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, [enabled]);
}
