import { expect, test } from "@playwright/test";
import { startScriptedOpenAi } from "../scripts/lib/scripted-openai";
import { port } from "./lib/servers";

/**
 * The recording gateway in the running app (Next's own server, two app
 * processes): a streamed call reaches the client chunk by chunk, is
 * recorded, and its run becomes a trace that reads as the call's answer.
 */
test("a streamed call through the gateway arrives chunk by chunk and its run becomes a trace", async ({ page, request }) => {
  const upstream = await startScriptedOpenAi(() => ({ text: "Streamed through the gateway, chunk by chunk.", chunkChars: 3, chunkDelayMs: 40 }));
  const runKey = `e2e-${Date.now().toString(36)}`;
  try {
    const put = await request.put("/api/projects/default/gateway", { data: { base_url: upstream.url } });
    expect(put.status()).toBe(200);
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/llm/run/${runKey}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-baton-agent": "narrator" },
      body: JSON.stringify({ model: "scripted", stream: true, messages: [{ role: "user", content: "Tell me how you got here." }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let firstAt = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      firstAt ||= performance.now() - started;
      text += decoder.decode(chunk.value, { stream: true });
    }
    const total = performance.now() - started;
    // 16 chunks 40 ms apart: the first must not wait for the rest
    expect(firstAt).toBeLessThan(total / 2);
    expect(text).toBe(upstream.requests[0]!.events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n");

    // the call may have been recorded by the other app process: flush until its run is stored
    await expect(async () => {
      const flushed = await request.post("/api/llm/flush", { data: { run_key: runKey } });
      expect(((await flushed.json()) as { runs: { status: string; calls: number }[] }).runs[0]).toMatchObject({ status: "stored", calls: 1 });
    }).toPass({ timeout: 10_000 });
    await page.goto(`/traces/gw-${runKey}`);
    await expect(page.getByTestId("trace-title")).toHaveText(`gw-${runKey}`);
    await expect(page.locator("main")).toContainText("Streamed through the gateway, chunk by chunk.");
    await expect(page.locator("main").getByText("narrator", { exact: true }).first()).toBeVisible();
  } finally {
    await request.delete("/api/projects/default/gateway");
    await upstream.close();
  }
});
