/**
 * The copy code: a short code stamped on each copy the portal sends (in its watermark, in a PDF's
 * metadata, in a DWG's file name) and stored on its access_log row, so that a copy found outside
 * the company leads back to the row: who, which supplier, which version, when, from where.
 * Random (crypto), not derived from the row id: a code read off one copy tells nothing about the
 * codes of others. Ten characters of Crockford's base32 (no I, L, O, U: read off a photo without
 * confusion), 50 bits; shown as two groups of five.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const COPY_CODE_LENGTH = 10;

/** A new code, as stored (10 characters, no separator). */
export function newCopyCode(): string {
  const bytes = randomBytes(COPY_CODE_LENGTH);
  let out = '';
  for (const b of bytes) out += ALPHABET[b & 31];
  return out;
}

/** As printed on a copy: `ABCDE-FGHJK`. */
export const formatCopyCode = (code: string): string => `${code.slice(0, 5)}-${code.slice(5)}`;

/**
 * A code as typed by someone reading a photo: case, spaces and dashes ignored, and the letters a
 * reader may take for digits read as the digits Crockford's alphabet means (O → 0, I/L → 1).
 * Null when it cannot be a code.
 */
export function normalizeCopyCode(typed: string): string | null {
  const s = typed
    .toUpperCase()
    .replace(/[\s\-_]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  return s.length === COPY_CODE_LENGTH && [...s].every((c) => ALPHABET.includes(c)) ? s : null;
}

/** The PDF metadata keyword that carries the code (found again when a PDF is uploaded to 泄露追溯). */
export const COPY_CODE_KEYWORD = 'esm-copy-code:';
