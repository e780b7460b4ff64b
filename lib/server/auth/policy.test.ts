import { describe, expect, it } from "vitest";
import type { Role, Scope } from "@/lib/api/auth";
import { permits, type Action, type Subject } from "./policy";

const user = (roles: Record<string, Role>, isAdmin = false): Subject => ({ isAdmin, roles: new Map(Object.entries(roles)) });
const key = (scopes: Scope[], owner: Subject = user({}, true)): Subject => ({ ...owner, scopes });
const ACTIONS: Action[] = ["read", "ingest", "annotate", "admin"];
const allowed = (s: Subject, project?: string, publicRead = false) => ACTIONS.filter((a) => permits(s, a, project, publicRead));

describe("permits: roles per project", () => {
  it("viewer reads, annotator also ingests and annotates, project admin does everything, in their project only", () => {
    expect(allowed(user({ p: "viewer" }), "p")).toEqual(["read"]);
    expect(allowed(user({ p: "annotator" }), "p")).toEqual(["read", "ingest", "annotate"]);
    expect(allowed(user({ p: "admin" }), "p")).toEqual(ACTIONS);
    expect(allowed(user({ p: "admin" }), "q")).toEqual([]);
  });

  it("a site admin may do everything everywhere", () => {
    expect(allowed(user({}, true), "anything")).toEqual(ACTIONS);
    expect(allowed(user({}, true))).toEqual(ACTIONS);
  });

  it("without a project, the role is needed in some project", () => {
    expect(allowed(user({ p: "viewer", q: "admin" }))).toEqual(ACTIONS);
    expect(allowed(user({ p: "annotator" }))).toEqual(["read", "ingest", "annotate"]);
    expect(allowed(user({}))).toEqual([]);
  });

  it("public read lets everyone read every project, and nothing more", () => {
    expect(allowed(user({}), "p", true)).toEqual(["read"]);
    expect(allowed(user({ q: "annotator" }), "p", true)).toEqual(["read"]);
  });
});

describe("permits: API keys", () => {
  it("need the action's scope; no scope gives admin", () => {
    expect(allowed(key(["ingest"]), "p")).toEqual(["ingest"]);
    expect(allowed(key(["read", "annotate"]), "p")).toEqual(["read", "annotate"]);
    expect(allowed(key(["read", "ingest", "annotate"]), "p")).toEqual(["read", "ingest", "annotate"]);
  });

  it("never do more than their user may", () => {
    expect(allowed(key(["ingest", "annotate", "read"], user({ p: "viewer" })), "p")).toEqual(["read"]);
    expect(allowed(key(["ingest"], user({ p: "annotator" })), "q")).toEqual([]);
  });

  it("under public read, still need the read scope to read", () => {
    expect(allowed(key(["ingest"]), "p", true)).toEqual(["ingest"]);
    expect(allowed(key(["read"], user({})), "p", true)).toEqual(["read"]);
  });
});
