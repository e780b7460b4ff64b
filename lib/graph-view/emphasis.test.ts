import { describe, expect, it } from "vitest";
import { ROLE } from "../metrics/roles";
import { LINEAGE_ANCESTOR, LINEAGE_DESCENDANT, LINEAGE_SELF } from "./edges";
import { edgeEmphasis, eventLook, LOOK, lookNames, overlayMask, type EmphasisInput } from "./emphasis";

const none: EmphasisInput = { overlays: 0, selected: null, hovered: null, lineage: null };

describe("eventLook", () => {
  it("marks a highlighted event, and a path overlay does not fade it", () => {
    expect(eventLook(3, 0, none, true)).toBe(LOOK.highlighted);
    expect(lookNames(eventLook(3, 0, { ...none, selected: 3 }, true))).toBe("selected highlighted");
    expect(eventLook(3, 0, { ...none, overlays: overlayMask(["taint"]) }, true)).toBe(LOOK.highlighted);
    expect(eventLook(3, 0, { ...none, overlays: overlayMask(["taint"]) })).toBe(LOOK.dim);
  });

  it("marks nothing without overlays, selection or hover", () => {
    expect(eventLook(0, ROLE.tainted | ROLE.critical, none)).toBe(0);
  });

  it("marks tainted events under the taint overlay and fades the rest", () => {
    const input = { ...none, overlays: overlayMask(["taint"]) };
    expect(eventLook(5, ROLE.tainted, input)).toBe(LOOK.taint);
    expect(eventLook(1, ROLE.critical, input)).toBe(LOOK.dim);
  });

  it("never fades the selected event", () => {
    expect(eventLook(2, 0, { ...none, overlays: overlayMask(["critical"]), selected: 2 })).toBe(LOOK.selected);
  });

  it("marks error sources and their descendants, the stop and its tail", () => {
    const input = { ...none, overlays: overlayMask(["errors", "stop"]) };
    expect(eventLook(0, ROLE.errorSource, input)).toBe(LOOK.errorSource);
    expect(eventLook(0, ROLE.errorDescendant | ROLE.tail, input)).toBe(LOOK.errorDescendant | LOOK.tail);
    expect(eventLook(0, ROLE.stop, { ...none, overlays: overlayMask(["stop"]) })).toBe(LOOK.stop); // stop alone fades nothing
  });

  it("shows the hovered event's lineage and fades everything else, over the overlays", () => {
    const lineage = Uint8Array.from([LINEAGE_ANCESTOR, LINEAGE_SELF, LINEAGE_DESCENDANT, 0]);
    const input = { ...none, overlays: overlayMask(["taint"]), hovered: 1, lineage };
    expect([0, 1, 2, 3].map((s) => lookNames(eventLook(s, 0, input)))).toEqual(["ancestor", "hovered", "descendant", "dim"]);
  });
});

describe("edgeEmphasis", () => {
  it("fades an edge with a faded end, strengthens edges inside a lineage or along one path", () => {
    expect(edgeEmphasis(LOOK.dim, LOOK.taint)).toBe("dim");
    expect(edgeEmphasis(LOOK.ancestor, LOOK.hovered)).toBe("strong");
    expect(edgeEmphasis(LOOK.taint, LOOK.taint | LOOK.critical)).toBe("strong");
    expect(edgeEmphasis(LOOK.taint, LOOK.critical)).toBe("normal");
    expect(edgeEmphasis(LOOK.errorSource, LOOK.errorDescendant)).toBe("strong");
    expect(edgeEmphasis(0, 0)).toBe("normal");
  });
});
