"use client";
import { useSyncExternalStore } from "react";

/** Follows the `dark` class the header's theme toggle sets on <html>, so React Flow's controls and minimap match. */
function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}

const isDark = () => document.documentElement.classList.contains("dark");
const onServer = () => false;

export function useDarkTheme(): boolean {
  return useSyncExternalStore(subscribe, isDark, onServer);
}
