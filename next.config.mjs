// Next.js config. better-sqlite3 is a native addon: it stays a plain Node require on the server, never bundled.
// graphile-worker (the cluster's job queue) loads its presets and migrations' SQL files at run time: also a plain
// require (pg, under it, is on Next's own list). @prisma/debug too: the SQLite adapter (external) keeps its query
// history there, and lib/server/db/query-history.ts must clear that same module, not a bundled copy of it.
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', '@prisma/debug', 'graphile-worker'],
};

export default nextConfig;
