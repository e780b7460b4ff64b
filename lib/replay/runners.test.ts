import { describe, expect, it } from "vitest";
import { parseRunners, runnerEnv, tail } from "./runners";

describe("registered runners", () => {
  it("parses the operator's configuration with defaults, and names each problem", () => {
    expect(parseRunners(undefined)).toEqual({});
    expect(parseRunners(JSON.stringify({ agents: { argv: ["node", "run.mjs"], cwd: "/srv/agents" } }))).toEqual({ agents: { argv: ["node", "run.mjs"], cwd: "/srv/agents", env: [], time_limit_s: 600, outcome: "none" } });
    expect(parseRunners("{")).toMatch(/not JSON/);
    expect(parseRunners(JSON.stringify({ a: { argv: [], cwd: "rel" } }))).toMatch(/a\.argv: .*a\.cwd: an absolute path/);
    expect(parseRunners(JSON.stringify({ a: { argv: ["x"], cwd: "/", env: ["A=B"] } }))).toMatch(/environment variable name/);
    expect(parseRunners(JSON.stringify({ "a b": { argv: ["x"], cwd: "/" } }))).toMatch(/a b: Invalid key/);
  });

  it("hands the program only the named variables, then its run URL", () => {
    const runner = { argv: ["x"], cwd: "/", env: ["PATH", "MISSING"], time_limit_s: 1, outcome: "none" as const };
    expect(runnerEnv(runner, { PATH: "/bin", SECRET: "s", OPENAI_BASE_URL: "http://elsewhere" } as unknown as NodeJS.ProcessEnv, "http://b/v1", "k", "cf-1")).toEqual({ PATH: "/bin", OPENAI_BASE_URL: "http://b/v1", OPENAI_API_KEY: "k", BATON_RUN_KEY: "cf-1" });
  });

  it("keeps the last bytes of long output", () => {
    expect(tail("abcdef", 3)).toBe("…def");
    expect(tail("abc", 3)).toBe("abc");
  });
});
