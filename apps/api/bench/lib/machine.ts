/** The machine the figures were taken on, printed above the tables. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { postgresVersion } from './postgres.ts';

function sh(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
  } catch {
    return '(unavailable)';
  }
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

export async function machineLines(): Promise<string[]> {
  const cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? '?';
  const mem =
    sh('free', ['-h'])
      .split('\n')
      .find((l) => l.startsWith('Mem:'))
      ?.split(/\s+/) ?? [];
  const pgv = await postgresVersion().catch((e: Error) => `(unreachable: ${e.message})`);
  return [
    `- CPU: ${cpu}, nproc ${sh('nproc', [])}`,
    `- Memory: ${mem[1] ?? '?'} total, ${mem[6] ?? '?'} available (free -h)`,
    `- Node ${process.version}, ${os.type()} ${os.release()}`,
    `- ${pgv.split(' on ')[0]}`,
    `- Load average at start: ${loadAverage()} (anything well above 0 means another job shared the 2 cores)`,
  ];
}
