import { breakdownLines, type RTotalPart } from "@/lib/rewards/breakdown";
import { formatValue } from "@/lib/format";

/**
 * R_total with what each family adds (w_f x R_f) on hover, so a failed run
 * whose R_total is positive says why. The breakdown is React text.
 */
export function RTotal({ value, parts, label = "R_total", format = (v) => formatValue(v) }: {
  value: number | null | undefined;
  parts: readonly RTotalPart[] | null | undefined;
  label?: string;
  format?: (value: number | null | undefined) => string;
}) {
  const lines = parts ? breakdownLines(parts) : [];
  const title = lines.length > 0 ? `R_total = Σ w_f × R_f\n${lines.join("\n")}` : undefined;
  return (
    <span data-testid="r-total" title={title} className={title ? "cursor-help underline decoration-dotted decoration-slate-400 underline-offset-2" : undefined}>
      {label ? `${label} ` : ""}{format(value)}
    </span>
  );
}
