/**
 * @prisma/client declares the prisma CLI and TypeScript as optional peers. pnpm resolves an
 * optional peer to whatever the importer has installed — here the api's devDependencies — and a
 * production install (`pnpm deploy --prod`, the image's runtime stage) then ships the CLI, Prisma
 * Studio, TypeScript and esbuild (~170 MB) although the generated client never loads them (it
 * imports only @prisma/client/runtime). Dropping the two peers keeps them build-only.
 *
 * cosmiconfig (under graphile-worker, the notification queue) declares TypeScript as an optional
 * peer for reading config files written in TypeScript; the queue is configured in code and reads
 * none, so the peer goes too and TypeScript stays out of the production install.
 */
const OPTIONAL_PEERS = { '@prisma/client': ['prisma', 'typescript'], cosmiconfig: ['typescript'] };

module.exports = {
  hooks: {
    readPackage(pkg) {
      for (const peer of OPTIONAL_PEERS[pkg.name] ?? []) {
        if (pkg.peerDependencies) delete pkg.peerDependencies[peer];
        if (pkg.peerDependenciesMeta) delete pkg.peerDependenciesMeta[peer];
      }
      return pkg;
    },
  },
};
