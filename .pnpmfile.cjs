/**
 * @prisma/client declares the prisma CLI and TypeScript as optional peers. pnpm resolves an
 * optional peer to whatever the importer has installed — here the api's devDependencies — and a
 * production install (`pnpm deploy --prod`, the image's runtime stage) then ships the CLI, Prisma
 * Studio, TypeScript and esbuild (~170 MB) although the generated client never loads them (it
 * imports only @prisma/client/runtime). Dropping the two peers keeps them build-only.
 */
module.exports = {
  hooks: {
    readPackage(pkg) {
      if (pkg.name === '@prisma/client' && pkg.peerDependencies) {
        delete pkg.peerDependencies.prisma;
        delete pkg.peerDependencies.typescript;
        if (pkg.peerDependenciesMeta) {
          delete pkg.peerDependenciesMeta.prisma;
          delete pkg.peerDependenciesMeta.typescript;
        }
      }
      return pkg;
    },
  },
};
