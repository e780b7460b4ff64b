import { describe, expect, it } from "vitest";
import { endpointProblem } from "@/lib/judges/endpoint-rules";
import { judgeEndpointPolicy } from "./endpoint";

describe("the judges' endpoint policy from the environment", () => {
  it("refuses loopback unless BATON_ALLOW_LOOPBACK=1 (a judge's reply is shown to its users: it must not read this machine's services)", () => {
    const off = judgeEndpointPolicy({ NODE_ENV: "test" });
    expect(off.loopback).toBe(false);
    expect(endpointProblem("http://127.0.0.1:6379/v1", off)).toContain("BATON_ALLOW_LOOPBACK=1");
    const on = judgeEndpointPolicy({ NODE_ENV: "test", BATON_ALLOW_LOOPBACK: "1" });
    expect(endpointProblem("http://127.0.0.1:8000/v1", on)).toBeNull();
    // the database stays refused either way
    expect(endpointProblem(`http://127.0.0.1:${on.database!.port}/v1`, on)).toContain("database");
  });
});
