import { describe, expect, it } from "vitest";
import { formatBound } from "@/lib/heatmap/buckets";
import { creditSubtitle } from "@/lib/heatmap/labels";
import { cellLabel } from "./heatmap/draw";
import { formatCredit } from "./trace-graph/format";

describe("float noise reads 0 wherever credit is shown", () => {
  it("the graph's credit values (inspector, overlay legend, R_total)", () => {
    // a task_success share that cancels to float debris on a failed Who&When run
    expect(formatCredit(-1.92e-15)).toBe("0");
    expect(formatCredit(3e-10)).toBe("0");
    expect(formatCredit(-0)).toBe("0");
    // real small values stay, signed
    expect(formatCredit(0.0312)).toBe("+0.0312");
    expect(formatCredit(-0.0004)).toBe("-4.00e-4");
    expect(formatCredit(null)).toBe("—");
  });

  it("heatmap cells, bucket bounds and the R_total of a heatmap's subtitle", () => {
    expect(cellLabel(-1.92e-15)).toBe("0");
    expect(cellLabel(-0.004)).toBe("-0.004");
    expect(cellLabel(0.5)).toBe("0.5");
    expect(formatBound(-1.92e-15)).toBe("0");
    expect(formatBound(12.3456)).toBe("12.35");
    expect(creditSubtitle({ method: "ccp", preset: "uniform", normalize: false, r_total: -1.92e-15 } as Parameters<typeof creditSubtitle>[0])).toContain("R_total 0");
  });
});
