import { spawn, type ChildProcess } from "node:child_process";

/**
 * A Baton server for a benchmark: `scripts/start.ts` (build when stale, its
 * own embedded PostgreSQL unless `env` names a DATABASE_URL) on `port`,
 * resolved once `/api/traces` answers. Shared by bench:render, bench:label
 * and bench:annotate.
 */
export async function startBenchServer(port: string | number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/start.ts"], {
    env: { ...process.env, PORT: String(port), BATON_DEMO: "0", NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    if (await fetch(`http://127.0.0.1:${port}/api/traces?limit=1`).then((r) => r.ok, () => false)) return child;
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error("the server did not start within 15 minutes");
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
