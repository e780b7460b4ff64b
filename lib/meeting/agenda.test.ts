import { describe, expect, it } from "vitest";
import { addItem, agendaFromParams, moveItem, parseStoredAgenda, presentedUrl, presentHref, removeItem, sitePath, slideIndex } from "./agenda";

describe("agenda", () => {
  it("accepts only paths on this site", () => {
    expect(sitePath("/dashboard?group_id=g")).toBe("/dashboard?group_id=g");
    for (const bad of ["https://evil.example/", "//evil.example/x", "/\\evil", "javascript:alert(1)", "dashboard", "/a\nb"]) expect(sitePath(bad)).toBeNull();
  });

  it("reads a stored agenda leniently, dropping bad entries", () => {
    expect(parseStoredAgenda('[{"url":"/dashboard","title":"Dashboard"},{"url":"https://x.y","title":"x"},{"url":"/heatmaps","title":""}]')).toEqual([
      { url: "/dashboard", title: "Dashboard" },
      { url: "/heatmaps", title: "/heatmaps" },
    ]);
    expect(parseStoredAgenda("not json")).toEqual([]);
    expect(parseStoredAgenda('{"url":"/"}')).toEqual([]);
    expect(parseStoredAgenda(null)).toEqual([]);
  });

  it("round-trips through the present link", () => {
    const items = agendaFromParams(["/dashboard?from=2026-01-01", "/traces/a%20b/heatmap?kind=event-family&method=uniform", "http://x"]);
    expect(items.map((i) => i.url)).toEqual(["/dashboard?from=2026-01-01", "/traces/a%20b/heatmap?kind=event-family&method=uniform"]);
    const href = presentHref(items, 2);
    const params = new URL(href, "http://localhost").searchParams;
    expect(agendaFromParams(params.getAll("agenda"))).toEqual(items);
    expect(params.get("slide")).toBe("2");
  });

  it("adds, removes and moves items", () => {
    const a = { url: "/a", title: "A" };
    const b = { url: "/b", title: "B" };
    const items = addItem(addItem([], a), b);
    expect(moveItem(items, 1, -1)).toEqual([b, a]);
    expect(moveItem(items, 1, 1)).toEqual(items);
    expect(removeItem(items, 0)).toEqual([b]);
    expect(addItem(items, { url: "http://x", title: "x" })).toEqual(items);
  });

  it("marks presented views and keeps slide numbers in range", () => {
    expect(presentedUrl("/dashboard?group_id=g")).toBe("/dashboard?group_id=g&present=1");
    expect(presentedUrl("/heatmaps")).toBe("/heatmaps?present=1");
    expect([undefined, "0", "2", "9", "x"].map((s) => slideIndex(s, 3))).toEqual([0, 0, 1, 2, 0]);
  });
});
