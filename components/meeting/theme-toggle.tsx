"use client";

import { useSyncExternalStore } from "react";
import { applyTheme, switchTheme, THEME_STORAGE_KEY } from "./theme";

/** The <html> class is the state; another tab or the presentation frame changing the stored theme follows along. */
function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY) applyTheme(event.newValue === "dark");
  };
  window.addEventListener("storage", onStorage);
  return () => {
    observer.disconnect();
    window.removeEventListener("storage", onStorage);
  };
}

const isDark = () => document.documentElement.classList.contains("dark");

/** Light / dark switch, remembered in localStorage. */
export function ThemeToggle({ className = "rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100" }: { className?: string }) {
  const dark = useSyncExternalStore(subscribe, isDark, () => false);
  return (
    <button type="button" onClick={switchTheme} data-testid="theme-toggle" aria-pressed={dark} className={className} title="Switch between light and dark theme">
      {dark ? "Light theme" : "Dark theme"}
    </button>
  );
}
