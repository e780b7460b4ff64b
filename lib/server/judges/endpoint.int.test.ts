/**
 * Judges' endpoints, bounded: the key stays with the endpoint it was given
 * for, base_url refuses link-local addresses and Baton's own database (and,
 * with BATON_JUDGE_HOSTS, anything not listed), redirects are not followed,
 * replies are read up to a limit and calls per process are capped.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { judgeInput } from "@/lib/judges/config";
import { prisma } from "@/lib/server/db/client";
import { startScriptedLlm, type ScriptedLlm } from "@/scripts/lib/scripted-llm";
import { chat, EndpointError, judgeEndpointPolicy } from "./endpoint";
import { createJudge, updateJudge } from "./store";

const PROJECT = "judge-endpoint-test";
let llm: ScriptedLlm;
const servers: Server[] = [];

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
    handler!(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, hits };
}
const ask = (baseUrl: string, apiKey: string | null = "sk-secret", model = "good") =>
  chat({ baseUrl, apiKey, model, messages: [{ role: "user", content: "grade" }], temperature: 0, maxTokens: 50, responseFormat: null }, { attempts: 2, baseDelayMs: 5, timeoutMs: 5000 });
const refusedWith = async (p: Promise<unknown>) => {
  const error = await p.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(EndpointError);
  return (error as EndpointError).message;
};

beforeAll(async () => {
  llm = await startScriptedLlm();
  await prisma().project.upsert({ where: { name: PROJECT }, create: { name: PROJECT }, update: {} });
});
afterEach(() => {
  delete process.env.BATON_JUDGE_HOSTS;
});
afterAll(async () => {
  await llm.close();
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  await prisma().judge.deleteMany({ where: { project: { name: PROJECT } } });
});

const judge = (name: string, base_url: string) => judgeInput.parse({ project: PROJECT, name, base_url, model: "good", api_key: "sk-secret", families: ["step_quality"] });

describe("a judge's key follows its endpoint, never a new URL", () => {
  it("PATCH of base_url alone drops the key; with a new key in the same patch the new key is kept; other fields keep it", async () => {
    const created = await createJudge(judge(`moved-${Date.now()}`, llm.url));
    expect(created.has_api_key).toBe(true);
    expect((await updateJudge(created.id, { model: "good:0.25" })).has_api_key).toBe(true);
    expect((await updateJudge(created.id, { base_url: llm.url })).has_api_key).toBe(true); // unchanged URL
    const moved = await updateJudge(created.id, { base_url: `${llm.url}/other` });
    expect(moved.has_api_key).toBe(false);
    expect((await prisma().judge.findUniqueOrThrow({ where: { id: created.id } })).apiKeyCipher).toBeNull();
    expect((await updateJudge(created.id, { base_url: llm.url, api_key: "sk-new" })).has_api_key).toBe(true);
  });

  it("base_url: link-local and the database's own address are refused at $.base_url; BATON_JUDGE_HOSTS narrows the rest", async () => {
    const db = judgeEndpointPolicy().database!;
    for (const url of ["http://169.254.169.254/latest", "http://[fe80::1]:8000/v1", `http://localhost:${db.port}/v1`]) {
      const error = await createJudge(judge(`bad-${Date.now()}`, url)).then(() => null, (e: unknown) => e as { status: number; details: { path: string }[] });
      expect([url, error?.status, error?.details[0]?.path]).toEqual([url, 400, "$.base_url"]);
    }
    process.env.BATON_JUDGE_HOSTS = "api.openai.com, 127.0.0.1";
    expect((await createJudge(judge(`listed-${Date.now()}`, llm.url))).base_url).toBe(llm.url);
    const unlisted = await createJudge(judge(`unlisted-${Date.now()}`, "http://localhost:11434/v1")).then(() => null, (e: unknown) => e as { status: number });
    expect(unlisted?.status).toBe(400);
    // the call checks again (a judge stored before the setting)
    expect(await refusedWith(ask("http://localhost:11434/v1"))).toContain("BATON_JUDGE_HOSTS");
  });
});

describe("calls", () => {
  it("a redirect is not followed: the key never reaches the other host", async () => {
    const target = await serve((_req, res) => res.end("{}"));
    const redirector = await serve((_req, res) => res.writeHead(307, { location: `${target.url}/chat/completions` }).end());
    expect(await refusedWith(ask(redirector.url))).toContain("follows no redirects");
    expect(redirector.hits).toHaveLength(1); // not retried either
    expect(target.hits).toEqual([]);
  });

  it("a reply over the limit (1 MiB) is refused without reading it all", async () => {
    const big = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 32);
      let sent = 0;
      const more = () => {
        while (sent < 400 && res.write(chunk)) sent++;
        if (sent < 400) res.once("drain", more);
        else res.end();
      };
      more();
    });
    expect(await refusedWith(ask(big.url))).toContain("larger than 1048576 bytes");
  });

  it("at most 16 calls are open per process", async () => {
    const replies = await Promise.all(Array.from({ length: 40 }, () => ask(llm.url, null, "delay")));
    expect(replies.every((r) => r.text.includes("scripted answer"))).toBe(true);
    expect(llm.peakInFlight).toBeLessThanOrEqual(16);
    expect(llm.peakInFlight).toBeGreaterThan(1);
  });
});
