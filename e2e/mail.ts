/** Where the e2e server files the mails its SMTP server accepted (e2e/serve.ts), and reading them. */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { e2eDatabaseName } from './db.ts';

export interface FiledMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export const e2eMailDir = () => path.join(tmpdir(), `esm-e2e-mail-${e2eDatabaseName}`);

/** Every mail accepted so far, oldest first. */
export function mails(): FiledMail[] {
  const dir = e2eMailDir();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as FiledMail);
}
