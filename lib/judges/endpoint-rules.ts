/**
 * Where a judge may send its prompts (and its API key). By default any
 * http(s) host, as docs/judges.md documents (OpenAI, vLLM on a host of
 * yours, Ollama on localhost), except addresses that are never a model
 * server: link-local ones (169.254.0.0/16, fe80::/10: cloud metadata
 * services live there) and the address and port of Baton's own database;
 * and, for judges, loopback addresses (this machine's own services) unless
 * the operator allows them (BATON_ALLOW_LOOPBACK=1, or a loopback host named
 * in BATON_JUDGE_HOSTS). BATON_JUDGE_HOSTS narrows it to a list (`host` or
 * `host:port`, comma-separated); the refused addresses stay refused.
 */

export interface EndpointPolicy {
  /** BATON_JUDGE_HOSTS parsed; null for any host */
  allowed: readonly string[] | null;
  /** the database's host and port (DATABASE_URL, or the embedded server on 127.0.0.1) */
  database: { host: string; port: number } | null;
  /** whether loopback addresses may be called (default true); a loopback host named in `allowed` always may */
  loopback?: boolean;
}

export function parseJudgeHosts(setting: string | undefined): string[] | null {
  const hosts = (setting ?? "").split(",").map((h) => h.trim().toLowerCase()).filter((h) => h !== "");
  return hosts.length === 0 || hosts.includes("*") ? null : hosts;
}

const bare = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, "");

/** Link-local addresses (IPv4 169.254/16, IPv6 fe80::/10, and IPv4-mapped forms of the former). */
export function isLinkLocal(address: string): boolean {
  const a = bare(address);
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.\d+\.\d+$/.exec(a);
  if (v4) return v4[1] === "169" && v4[2] === "254";
  return /^fe[89ab][0-9a-f]?:/.test(a);
}

/** Loopback names and addresses, which all reach this machine. */
export function isLoopback(address: string): boolean {
  const a = bare(address);
  return a === "localhost" || a.endsWith(".localhost") || a === "::1" || /^(?:::ffff:)?127\.\d+\.\d+\.\d+$/.test(a);
}

function portOf(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/** Whether host:port is the database's (loopback names count as one another). */
function isDatabase(host: string, port: number, database: EndpointPolicy["database"]): boolean {
  if (database === null || port !== database.port) return false;
  return bare(host) === bare(database.host) || (isLoopback(host) && isLoopback(database.host));
}

/** Null when a judge may call `baseUrl`; else why not. `resolved`: the addresses its host resolves to, when known. */
export function endpointProblem(baseUrl: string, policy: EndpointPolicy, resolved: readonly string[] = []): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return "not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "only http and https endpoints";
  const host = url.hostname;
  const port = portOf(url);
  for (const address of [host, ...resolved]) {
    if (isLinkLocal(address)) return `${address} is a link-local address (never a model server)`;
    if (isDatabase(address, port, policy.database)) return `${bare(address)}:${port} is Baton's own database`;
  }
  const named = policy.allowed !== null && (policy.allowed.includes(bare(host)) || policy.allowed.includes(`${bare(host)}:${port}`));
  if (policy.loopback === false && !named) {
    const local = [host, ...resolved].find(isLoopback);
    if (local !== undefined) return `${bare(local)} is a loopback address (a service of this machine); an operator may allow it with BATON_ALLOW_LOOPBACK=1 or by naming ${bare(host)}:${port} in BATON_JUDGE_HOSTS`;
  }
  if (policy.allowed !== null && !named) return `${bare(host)}:${port} is not in BATON_JUDGE_HOSTS`;
  return null;
}
