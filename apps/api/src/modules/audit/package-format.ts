/**
 * The evidence package's format (evidence.ts writes it, package-verify.ts checks it): its
 * entries and the hashes that bind them. Kept apart from the writer so that the offline
 * verifier needs nothing of the database.
 */
import { createHash } from 'node:crypto';
import type { EVIDENCE_PACKAGE_KIND } from '@esm/contracts';
import type { ChainHead } from './chain.ts';

/** A chained row as the package keeps it: `content` is the text the trigger hashed, verbatim. */
export interface PackagedRow {
  id: number;
  seq: number;
  prevHash: string;
  rowHash: string;
  content: string;
}

export interface ChainFile {
  table: string;
  label: string;
  rows: PackagedRow[];
}

export interface RecordFile {
  name: string;
  label: string;
  rows: Record<string, unknown>[];
}

export interface EvidenceSubject {
  kind: 'SUPPLIER_SUBJECT' | 'NOTICE';
  /** what the report's title names */
  title: string;
  supplierCode: string | null;
  supplierName: string | null;
  materialCodes: string[];
  standardCode: string | null;
  noticeId: number | null;
  noticeNumber: string | null;
}

export interface ManifestEntry {
  name: string;
  sha256: string;
  rows: number | null;
}

/** manifest.json; `manifestSha256` is the sha256 of JSON.stringify of the rest (in this key order). */
export interface EvidenceManifest {
  kind: typeof EVIDENCE_PACKAGE_KIND;
  version: 1;
  subject: EvidenceSubject;
  generatedAt: string;
  generatedBy: { account: string; name: string };
  /** every chained table's last place and hash when the package was made */
  heads: ChainHead[];
  /** sha256 over the heads (table:seq:hash, one per line): the one value the report prints */
  headsDigest: string;
  entries: ManifestEntry[];
  manifestSha256: string;
}

export const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
export const headsDigestOf = (heads: readonly ChainHead[]) =>
  sha256(heads.map((h) => `${h.table}:${h.seq}:${h.hash}`).join('\n'));
export const manifestHashOf = (m: Omit<EvidenceManifest, 'manifestSha256'>) => sha256(JSON.stringify(m));
