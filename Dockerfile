# The portal for operators: api + built web in one image; Postgres comes from docker-compose.
FROM node:20-bookworm-slim
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH TURBO_TELEMETRY_DISABLED=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1
RUN npm install -g pnpm@10.34.9
# pg_dump / pg_restore for `pnpm db:backup` / `pnpm db:restore` inside the container (bookworm's
# client is 15, the compose file's server version)
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# DEMO_IMAGE=off: no demo image (the demo data seeded at build, usable only on the day of the
# build — apps/api/src/db/image.ts); the container seeds its demo data, if any, at its first start
RUN pnpm install --frozen-lockfile && pnpm --filter @esm/web build && DEMO_IMAGE=off pnpm --filter @esm/api build
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s CMD node -e "fetch('http://127.0.0.1:3000/esm-server/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Memory (docs/benchmarks.md, "Archives"): the server runs as a bundle on plain node (no tsx
# loader at run time), a fixed 128 KB malloc mmap threshold gives back the large blocks V8 frees
# after compiling Prisma's WebAssembly, 4 MB semi-spaces keep the young generation small, and a
# fixed 1.5× old-generation growth factor stops V8 from letting an export's garbage pile up
# (its default lets the heap grow up to 4× between collections); the same as apps/api's `start`.
ENV MALLOC_MMAP_THRESHOLD_=131072
# node itself as PID 1 child-free: SIGTERM reaches the graceful shutdown directly
WORKDIR /app/apps/api
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=50", "dist/server.mjs"]
