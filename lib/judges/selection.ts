import { z } from "zod";

/**
 * The `judges=` query parameter (SPEC.md section 5): absent or `none` means
 * people only, `all` every judge of the trace's project, else a
 * comma-separated list of judge names.
 */
export type JudgeSelection = { kind: "none" } | { kind: "all" } | { kind: "names"; names: string[] };

export const NO_JUDGES: JudgeSelection = { kind: "none" };

const NAME = z.string().trim().min(1, "empty judge name").max(100, "judge name longer than 100 characters");

export const judgesParam = z
  .string()
  .optional()
  .transform((raw, ctx): JudgeSelection => {
    if (raw === undefined || raw.trim() === "" || raw.trim() === "none") return NO_JUDGES;
    if (raw.trim() === "all") return { kind: "all" };
    const names: string[] = [];
    for (const part of raw.split(",")) {
      const name = NAME.safeParse(part);
      if (!name.success) {
        ctx.addIssue({ code: "custom", message: `judges: ${name.error.issues[0]!.message} (use all, none or name,name)` });
        return z.NEVER;
      }
      if (!names.includes(name.data)) names.push(name.data);
    }
    return { kind: "names", names };
  });

/** The selection written back as a query value ("" for none), for links and toggles. */
export function selectionParam(selection: JudgeSelection): string {
  return selection.kind === "none" ? "" : selection.kind === "all" ? "all" : selection.names.join(",");
}
