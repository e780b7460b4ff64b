import { existsSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The globs a second pass of the integration suite leaves out
 * (BATON_INTEGRATION_EXCLUDE: comma-separated, each a test file's path or a
 * folder's followed by `/**`), checked against the tree: a glob that names
 * nothing (its file renamed or moved) throws, rather than let that file
 * quietly run in the pass again. Globs of another shape are taken as given.
 */
export function leftOutGlobs(root: string, value: string | undefined): string[] {
  const globs = (value ?? "").split(",").map((g) => g.trim()).filter(Boolean);
  for (const glob of globs) {
    const folder = glob.endsWith("/**") ? glob.slice(0, -3) : null;
    const plain = !(folder ?? glob).includes("*");
    if (!plain) continue;
    const target = path.join(root, folder ?? glob);
    const found = existsSync(target) && (folder === null ? statSync(target).isFile() : statSync(target).isDirectory());
    if (!found) throw new Error(`BATON_INTEGRATION_EXCLUDE names ${glob}, which matches no ${folder === null ? "file" : "folder"} here: renamed or moved? Name it as it is now.`);
  }
  return globs;
}
