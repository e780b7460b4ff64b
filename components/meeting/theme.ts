/**
 * Theme and presentation classes on <html>, set before the first paint by a
 * tiny inline script (no flash of the wrong theme): `dark` from the choice
 * stored in localStorage, or, when there is none, from the system's
 * setting (prefers-color-scheme); `presenting` for a view opened with `present=1` (inside the
 * presentation frame: no site chrome, larger, higher contrast).
 */
export const THEME_STORAGE_KEY = "baton.theme";

export const THEME_SCRIPT = `(function(){try{var d=document.documentElement;var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="dark"||(t!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches))d.classList.add("dark");if(new URLSearchParams(location.search).get("present")==="1")d.classList.add("presenting");}catch(e){}})();`;

export function applyTheme(dark: boolean): void {
  document.documentElement.classList.toggle("dark", dark);
}

/** Switches between light and dark and remembers the choice; other documents of the site (the presentation frame, other tabs) follow through the storage event. */
export function switchTheme(): void {
  const dark = !document.documentElement.classList.contains("dark");
  applyTheme(dark);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, dark ? "dark" : "light");
  } catch {
    // storage may be off (private mode): the theme then lasts for this page only
  }
}
