import { describe, expect, it } from "vitest";
import { endpointProblem, isLinkLocal, isLoopback, parseJudgeHosts } from "./endpoint-rules";

const policy = { allowed: null, database: { host: "127.0.0.1", port: 24329 } };

describe("judge endpoints", () => {
  it("accepts what docs/judges.md documents: OpenAI, vLLM on a host, Ollama on localhost", () => {
    for (const url of ["https://api.openai.com/v1", "http://gpu-box:8000/v1", "http://localhost:11434/v1", "http://10.0.0.7:8000/v1"]) expect([url, endpointProblem(url, policy)]).toEqual([url, null]);
  });
  it("refuses link-local addresses (literal or resolved) and the database's host and port", () => {
    expect(endpointProblem("http://169.254.169.254/latest", policy)).toContain("link-local");
    expect(endpointProblem("http://[fe80::1%25eth0]:80/", policy)).not.toBeNull();
    expect(endpointProblem("http://metadata.internal/v1", policy, ["169.254.169.254"])).toContain("link-local");
    expect(endpointProblem("http://localhost:24329/v1", policy)).toContain("database");
    expect(endpointProblem("http://[::1]:24329/v1", policy)).toContain("database");
    expect(endpointProblem("http://db-alias:24329/v1", policy, ["127.0.0.1"])).toContain("database");
    expect(endpointProblem("http://localhost:24330/v1", policy)).toBeNull();
    expect(endpointProblem("ftp://x/v1", policy)).not.toBeNull();
  });
  it("BATON_JUDGE_HOSTS narrows to its hosts (host or host:port); * or empty allows any", () => {
    const narrow = { ...policy, allowed: parseJudgeHosts("api.openai.com, gpu-box:8000") };
    expect(endpointProblem("https://api.openai.com/v1", narrow)).toBeNull();
    expect(endpointProblem("http://gpu-box:8000/v1", narrow)).toBeNull();
    expect(endpointProblem("http://gpu-box:9000/v1", narrow)).toContain("BATON_JUDGE_HOSTS");
    expect(parseJudgeHosts("*")).toBeNull();
    expect(parseJudgeHosts("")).toBeNull();
  });
  it("classifies addresses", () => {
    expect([isLinkLocal("169.254.1.1"), isLinkLocal("::ffff:169.254.1.1"), isLinkLocal("fe80::1"), isLinkLocal("10.0.0.1"), isLinkLocal("fec0::1")]).toEqual([true, true, true, false, false]);
    expect([isLoopback("127.0.0.2"), isLoopback("::1"), isLoopback("localhost"), isLoopback("a.localhost"), isLoopback("10.0.0.1")]).toEqual([true, true, true, true, false]);
  });
  it("with loopback off (judges by default): 127.0.0.0/8, ::1 and localhost refused, literal or resolved, unless BATON_JUDGE_HOSTS names the host", () => {
    const judges = { ...policy, loopback: false };
    for (const url of ["http://localhost:11434/v1", "http://127.0.0.2:8000/v1", "http://[::1]:8000/v1"]) expect(endpointProblem(url, judges), url).toContain("loopback address");
    expect(endpointProblem("http://rebound.example/v1", judges, ["127.0.0.1"])).toContain("loopback address");
    expect(endpointProblem("http://localhost:11434/v1", { ...judges, allowed: parseJudgeHosts("localhost:11434") })).toBeNull();
    expect(endpointProblem("http://localhost:24329/v1", { ...judges, allowed: parseJudgeHosts("localhost") })).toContain("database");
    expect(endpointProblem("https://api.openai.com/v1", judges, ["104.18.7.192"])).toBeNull();
  });
});
