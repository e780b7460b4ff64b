import { describe, expect, it } from "vitest";
import { addItem, agendaFromParams, moveItem, parseStoredAgenda, presentedUrl, presentHref, removeItem, sitePath, slideIndex, viewTitle } from "./agenda";

describe("agenda", () => {
  it("accepts only paths on this site", () => {
    expect(sitePath("/dashboard?group_id=g")).toBe("/dashboard?group_id=g");
    for (const bad of ["https://evil.example/", "//evil.example/x", "/\\evil", "javascript:alert(1)", "dashboard", "/a\nb"]) expect(sitePath(bad)).toBeNull();
  });

  it("reads a stored agenda leniently, dropping bad entries", () => {
    expect(parseStoredAgenda('[{"url":"/dashboard","title":"Dashboard"},{"url":"https://x.y","title":"x"},{"url":"/heatmaps","title":""}]')).toEqual([
      { url: "/dashboard", title: "Dashboard" },
      { url: "/heatmaps", title: "Credit by role and family" },
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
    expect(agendaFromParams(params.getAll("agenda"), params.getAll("title"))).toEqual(items);
    expect(params.get("slide")).toBe("2");
    // titles travel with the link
    const named = presentHref([{ url: "/dashboard", title: "Where we stand" }]);
    const back = new URL(named, "http://localhost").searchParams;
    expect(agendaFromParams(back.getAll("agenda"), back.getAll("title"))).toEqual([{ url: "/dashboard", title: "Where we stand" }]);
  });

  it("titles a view without one as a person would, never by its bare path", () => {
    expect(agendaFromParams(["/dashboard?system=CaptainAgent%20(AG2)&from=2026-01-01"])[0]!.title).toBe("Dashboard · system CaptainAgent (AG2)");
    expect(viewTitle("/traces/a%20b/heatmap?kind=event-family")).toBe("Credit heatmap of a b");
    expect(viewTitle("/traces/t1/graph?ov=credit")).toBe("Graph of t1");
    expect(viewTitle("/traces/t1")).toBe("Trace t1");
    expect(viewTitle("/traces/t1/label")).toBe("Labels of t1");
    expect(viewTitle("/groups/g%2F1")).toBe("Group g/1");
    expect(viewTitle("/compare?a=x&b=y")).toBe("x vs y");
    expect(viewTitle("/decisions?project=p&policy_version=ckpt-2")).toBe("Decision analytics · project p · checkpoint ckpt-2");
    expect(viewTitle("/attribution")).toBe("Failure attribution");
    expect(viewTitle("/heatmaps?task_id=t")).toBe("Credit by role and family · task t");
    expect(viewTitle("/?text=timeout")).toBe("Traces · search timeout");
    expect(viewTitle("/traces/%E0%A4%A")).toBe("Trace %E0%A4%A"); // a malformed escape stays as written
    expect(viewTitle("/somewhere/else")).toBe("/somewhere/else");
    expect(addItem([], { url: "/dashboard", title: "" })).toEqual([{ url: "/dashboard", title: "Dashboard" }]);
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
