/**
 * Runs one of the api's command-line entry points as its package.json script does (`tsx <script>`
 * in apps/api), with only the environment an operator's shell would give it, and collects its output.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TSX = path.join(API_DIR, 'node_modules/.bin/tsx');

export function runCli(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [script, ...args], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}
