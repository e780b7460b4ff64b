import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every `route.ts` under app/api and every `page.tsx` under app, as paths relative to the repository root. */
export function appFiles(name: "route.ts" | "page.tsx" | "page.bench.tsx", dir = "app"): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === "node_modules" ? [] : appFiles(name, path);
    return entry === name ? [path] : [];
  });
}

/** `app/api/traces/[id]/route.ts` -> `/api/traces/[id]` (`page.bench.tsx`: a benchmark page, built only with BATON_BENCH_PAGES=1) */
export const routePath = (file: string) => file.replace(/^app/, "").replace(/\/(route\.ts|page\.tsx|page\.bench\.tsx)$/, "") || "/";
