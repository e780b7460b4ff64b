import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { agentOf, parseGatewayPath, traceIdOfRun } from "./request";

describe("who a gateway call belongs to", () => {
  it("the path: optional project and run key, then v1 and the API", () => {
    expect(parseGatewayPath(["v1", "chat", "completions"])).toEqual({ project: null, runKey: null, api: "chat" });
    expect(parseGatewayPath(["run", "exp-17", "v1", "responses"])).toEqual({ project: null, runKey: "exp-17", api: "responses" });
    expect(parseGatewayPath(["project", "lab", "run", "r", "v1", "chat", "completions"])).toEqual({ project: "lab", runKey: "r", api: "chat" });
    expect(parseGatewayPath(["v1", "embeddings"])).toBeNull();
    expect(parseGatewayPath(["run", "v1", "responses"])).toBeNull();
    expect(traceIdOfRun("exp-17")).toBe("gw-exp-17");
  });

  it("the agent: header, then metadata, then user, then a hash of the system prompt", () => {
    const body = { messages: [{ role: "system", content: "You plan." }, { role: "user", content: "hi" }], user: "u1", metadata: { agent: "meta" } };
    expect(agentOf("planner", body)).toBe("planner");
    expect(agentOf(null, body)).toBe("meta");
    expect(agentOf(null, { ...body, metadata: { baton_agent: "b" } })).toBe("b");
    expect(agentOf(null, { ...body, metadata: undefined })).toBe("u1");
    const hash = createHash("sha256").update("You plan.").digest("hex").slice(0, 8);
    expect(agentOf(null, { messages: body.messages })).toBe(`agent-${hash}`);
    expect(agentOf(null, { instructions: "You plan.", input: "hi" })).toBe(`agent-${hash}`);
    expect(agentOf("  ", { messages: [{ role: "user", content: "hi" }] })).toBe("agent");
  });
});
