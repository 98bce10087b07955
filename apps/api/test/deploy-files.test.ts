/**
 * The deployment files as an operator gets them (docker-compose.yml, Caddyfile, Dockerfile,
 * .dockerignore, .env.example). No Docker engine runs here: the compose file is read with a YAML
 * parser and checked for what `docker compose up` relies on — the services and their health
 * checks, replicas behind the proxy, named volumes, log rotation, restart policies, and no
 * password or secret with a default (compose must refuse to start instead).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
  restart?: string;
  logging?: { driver: string; options: Record<string, string> };
  profiles?: string[];
  command?: string[] | string;
  networks?: string[];
}
interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  networks: Record<string, { ipam: { config: { subnet: string }[] } }>;
}

const composeText = read('docker-compose.yml');
const compose = parse(composeText) as Compose;
const { services } = compose;
const health = (s: Service) => s.healthcheck?.test.join(' ') ?? '';
const SECRET = /PASSWORD|SECRET/;

describe('docker-compose.yml', () => {
  it('runs Postgres, MinIO with its bucket, the api and Caddy, each with a health check', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'minio', 'minio-init', 'api', 'caddy']));
    expect(services.postgres!.image).toMatch(/^postgres:1[56]\b/);
    expect(health(services.postgres!)).toMatch(/pg_isready -U esm -d esm/);
    expect(health(services.minio!)).toMatch(/mc ready local/);
    expect(health(services.api!)).toContain('/esm-server/health/ready');
    expect(health(services.caddy!)).not.toBe('');

    // the bucket exists (versioned) before an api starts
    const init = String(services['minio-init']!.command);
    expect(init).toMatch(/mc mb --ignore-existing "local\/\$\$S3_BUCKET"/);
    expect(init).toMatch(/mc version enable/);
    expect(services['minio-init']!.depends_on!.minio).toEqual({ condition: 'service_healthy' });
    expect(services.api!.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      'minio-init': { condition: 'service_completed_successfully' },
    });
  });

  it('runs the api from a named image (build optional) as 2 replicas that only Caddy reaches', () => {
    const api = services.api!;
    expect(api.image).toMatch(/^\$\{ESM_IMAGE:-[a-z0-9-]+\}:\$\{ESM_TAG:-[a-z0-9.-]+\}$/);
    expect(api.build).toBeDefined();
    expect(api.deploy?.replicas).toBe(2);
    // a fixed host port would stop a second replica (and `--scale`)
    expect(api.ports).toBeUndefined();
    expect(services.caddy!.ports).toEqual(expect.arrayContaining(['80:80', '443:443']));
    expect(services.caddy!.volumes).toContain('./Caddyfile:/etc/caddy/Caddyfile:ro');
  });

  it('configures the api for replicas: Postgres, S3, a shared secret, the proxy trusted by its network range', () => {
    const env = services.api!.environment!;
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/esm:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/esm$/);
    for (const v of [
      'SESSION_SECRET',
      'S3_ENDPOINT',
      'S3_BUCKET',
      'S3_REGION',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_FORCE_PATH_STYLE',
    ])
      expect(env[v], v).toBeTruthy();
    expect(env.S3_ENDPOINT).toBe('http://minio:9000');
    expect(env.S3_FORCE_PATH_STYLE).toBe('true');
    expect(env.SECURE_COOKIES).toBe('true');
    // the range the network is given, not "true"
    expect(env.TRUST_PROXY).toBe(compose.networks.esm!.ipam.config[0]!.subnet);
    for (const s of ['postgres', 'minio', 'minio-init', 'api', 'caddy'])
      expect(services[s]!.networks, s).toEqual(['esm']);
    expect(Number(env.SHUTDOWN_GRACE_SECONDS)).toBeGreaterThan(0);
    expect(env.BACKUP_DIR).toBe('/backups');
  });

  it('gives no password or secret a default: compose refuses to start without it', () => {
    // every interpolation of a secret in the file requires it (${NAME:?message})
    const uses = [...composeText.matchAll(/\$\{([A-Z0-9_]+)([^}]*)\}/g)].filter(([, name]) => SECRET.test(name!));
    expect(uses.length).toBeGreaterThan(5);
    for (const [use] of uses) expect(use, use).toMatch(/^\$\{[A-Z0-9_]+:\?/);
    // … and no secret is written into the file as a value
    for (const [name, s] of Object.entries(services)) {
      for (const [key, value] of Object.entries(s.environment ?? {})) {
        if (SECRET.test(key)) expect(String(value), `${name}.${key}`).toMatch(/^\$\{[A-Z0-9_]+:\?[^}]+\}$/);
      }
    }
  });

  it('keeps data on named volumes, rotates logs and restarts every long-running service', () => {
    const declared = Object.keys(compose.volumes);
    expect(declared).toEqual(expect.arrayContaining(['pg-data', 'minio-data', 'backups']));
    expect(services.postgres!.volumes).toContain('pg-data:/var/lib/postgresql/data');
    expect(services.minio!.volumes).toContain('minio-data:/data');
    for (const [name, s] of Object.entries(services)) {
      // a volume is a declared named one, or a file of this folder mounted read-only
      for (const v of s.volumes ?? []) {
        const source = v.split(':')[0]!;
        if (source.startsWith('./')) expect(v, `${name}: ${v}`).toMatch(/:ro$/);
        else expect(declared, `${name}: ${v}`).toContain(source);
      }
      expect(s.logging, name).toMatchObject({
        driver: 'json-file',
        options: { 'max-size': expect.stringMatching(/^\d+m$/), 'max-file': expect.stringMatching(/^\d+$/) },
      });
      const oneShot = name === 'minio-init' || s.profiles !== undefined;
      expect(s.restart, name).toBe(oneShot ? 'no' : 'unless-stopped');
    }
  });

  it('names every required variable in .env.example, with the secrets left empty', () => {
    const example = Object.fromEntries(
      read('.env.example')
        .split('\n')
        .filter((l) => /^[A-Z0-9_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    const required = new Set([...composeText.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map(([, name]) => name!));
    for (const name of required) expect(example, name).toHaveProperty(name);
    for (const [name, value] of Object.entries(example)) if (SECRET.test(name)) expect(value, name).toBe('');
  });
});

describe('Caddyfile', () => {
  const caddy = read('Caddyfile');
  it('spreads requests over every api replica, round robin, with a request id', () => {
    expect(caddy).toMatch(/reverse_proxy \{[\s\S]*dynamic a \{\s*name api\s*port 3000/);
    expect(caddy).toMatch(/lb_policy round_robin/);
    expect(caddy).toMatch(/header_up X-Request-Id \{http\.request\.uuid\}/);
    expect(caddy).toMatch(/^\{\$ESM_DOMAIN\} \{/m);
  });
});

describe('Dockerfile and .dockerignore', () => {
  const dockerfile = read('Dockerfile');
  it('builds in one stage and runs the runtime folder in another, on Node 24, as a non-root user', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-/m);
    expect(dockerfile.match(/^FROM \$\{NODE_IMAGE\} AS (\w+)/gm)).toEqual([
      'FROM ${NODE_IMAGE} AS build',
      'FROM ${NODE_IMAGE} AS runtime',
    ]);
    // the install layer sees only the manifests: a source change does not reinstall
    const install = dockerfile.indexOf('RUN pnpm install --frozen-lockfile');
    expect(install).toBeGreaterThan(0);
    expect(dockerfile.indexOf('COPY . .')).toBeGreaterThan(install);
    expect(dockerfile).toContain('node scripts/runtime-folder.mjs /runtime');
    expect(dockerfile).toContain('COPY --from=build /runtime /app');
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).not.toMatch(/pnpm|npm install|corepack/);
    expect(runtime).toMatch(/^HEALTHCHECK [\s\S]*process\.env\.PORT[\s\S]*\/esm-server\/health\/ready/m);
  });

  it('keeps secrets, history, local data, installed packages and tests out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const p of [
      '.env',
      '.git',
      '.data',
      'node_modules',
      '**/node_modules',
      'apps/api/test',
      'apps/api/bench',
      'e2e',
    ])
      expect(ignored, p).toContain(p);
  });
});
