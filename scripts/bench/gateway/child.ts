/**
 * bench:gateway's gateway process: the gateway's route handlers behind node:http
 * (scripts/lib/gateway-server.ts), the project's upstream set to UPSTREAM_URL, on
 * the database DATABASE_URL. Prints `{"url": ...}` once listening; runs until killed.
 */
import { startGatewayServer } from "../../lib/gateway-server";
import { putUpstream } from "@/lib/server/gateway/upstreams";

async function main() {
  await putUpstream("default", { base_url: process.env.UPSTREAM_URL!, api_key: "sk-bench", max_reply_bytes: 16 << 20, timeout_ms: 60_000, request_token_ids: false, request_logprobs: false, tokenizer: null });
  const server = await startGatewayServer();
  console.log(JSON.stringify({ url: server.url }));
  // exit (not die) on SIGTERM, so that a --cpu-prof profile is written
  process.once("SIGTERM", () => process.exit(0));
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
