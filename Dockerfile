# syntax=docker/dockerfile:1
# The portal for operators: the api and the built web in one image (docs/operators.md). Postgres,
# the object store and the TLS proxy come from docker-compose.yml.
#
#   docker build -t esm-portal:1.0 .
#
# Two stages: `build` installs every dependency and builds; `runtime` gets only the folder
# scripts/runtime-folder.mjs assembles from that build (the bundle, the built web, the migrations,
# the database image and the production dependencies the bundle leaves external) and runs it as
# a non-root user. apps/api/test/runtime-folder.test.ts builds the same folder with the same
# script and starts the portal from it, so what this image runs is tested without Docker.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH CI=true TURBO_TELEMETRY_DISABLED=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1
RUN npm install -g pnpm@10.34.9
WORKDIR /src
# The manifests first: this layer, the slow install, is reused until a manifest or the lockfile
# changes. Lifecycle scripts wait (--ignore-scripts): the api's generates the Prisma client from
# the schema, which is source; it runs below, after the sources are copied.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc .pnpmfile.cjs ./
COPY patches ./patches
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
RUN pnpm install --frozen-lockfile --ignore-scripts
COPY . .
# DEMO_IMAGE=off: no demo image (demo data seeded at build, usable only on the day of the build);
# a container that is asked for demo data (SEED_DEMO=true) seeds it at its first start.
RUN node apps/api/scripts/generate-client.mjs \
 && DEMO_IMAGE=off pnpm build \
 && node scripts/runtime-folder.mjs /runtime

FROM ${NODE_IMAGE} AS runtime
# pg_dump / pg_restore for the backup commands: their major version must be at least the
# server's (docker-compose.yml runs postgres:16). Debian's own client is 15, so the PostgreSQL
# project's apt repository is added, with the signing key postgresql-common ships (no download
# of a key). Build with --build-arg PG_MAJOR=17 for a newer server.
ARG PG_MAJOR=16
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates postgresql-common \
 && /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y \
 && apt-get install -y --no-install-recommends postgresql-client-${PG_MAJOR} \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data BACKUP_DIR=/backups \
    MALLOC_MMAP_THRESHOLD_=131072
# Owned by root and read-only for the process: a compromised server cannot rewrite its own code.
COPY --from=build /runtime /app
# The node image's unprivileged user (uid 1000) owns only what the portal writes: DATA_DIR (the
# embedded database, a local file store) and BACKUP_DIR.
RUN mkdir -p /data /backups && chown node:node /data /backups
USER node
WORKDIR /app/apps/api
EXPOSE 3000
# Ready, not merely alive: the database answers and the file store takes a probe. PORT as the
# container was started with; node's own fetch (the slim image has no curl).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/esm-server/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Memory (docs/benchmarks.md, archive-export): the server runs as a bundle on plain node, a fixed
# 128 KB malloc mmap threshold (above) gives back the large blocks V8 frees after compiling
# Prisma's WebAssembly, 4 MB semi-spaces keep the young generation small, and a fixed 1.5×
# old-generation growth factor stops V8 from letting an export's garbage pile up; the same as
# apps/api's `start`. node is PID 1 itself: SIGTERM reaches the graceful shutdown directly.
# The operators' commands run the same way: `node dist/cli.mjs backup` (docs/operators.md).
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=50", "dist/server.mjs"]
