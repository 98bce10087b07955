/**
 * `pnpm audit:verify --package FILE.zip`: checks an evidence package (evidence.ts) with nothing
 * but the file — no database. In order, so that the first problem named is the most precise:
 *  1. each chained row: its hash recomputed from its content as stored and its previous hash
 *     (chain.ts rowHash), its content's id and chain place the row's own, and where two rows of a
 *     table are consecutive places, the later one's previous hash the earlier one's hash;
 *  2. each row at or before the chain head of its table named in the manifest (the head it was
 *     made against), and a row at the head carrying the head's hash;
 *  3. the manifest's hash over itself and the heads' digest; every entry's sha256 and row count.
 * Holding the package to the live chain is `pnpm audit:verify` (with --heads for heads kept
 * elsewhere); the heads printed here are what to compare with.
 */
import JSZip from 'jszip';
import { EVIDENCE_PACKAGE_KIND } from '@esm/contracts';
import { rowHash, type ChainHead } from './chain.ts';
import { headsDigestOf, manifestHashOf, sha256, type ChainFile, type EvidenceManifest } from './package-format.ts';

export interface PackageReport {
  ok: boolean;
  manifest: EvidenceManifest | null;
  rows: number;
  /** in the order found; the first is the one to name */
  problems: string[];
}

const fail = (problem: string): PackageReport => ({ ok: false, manifest: null, rows: 0, problems: [problem] });

const parseContent = (text: string): { id?: unknown; chain_seq?: unknown } | null => {
  try {
    return JSON.parse(text) as { id?: unknown; chain_seq?: unknown };
  } catch {
    return null;
  }
};

export async function verifyPackage(bytes: Uint8Array): Promise<PackageReport> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    return fail('不是 ZIP 文件：请给出从门户导出的证据包');
  }
  const manifestFile = zip.file('manifest.json');
  if (!manifestFile) return fail('证据包中没有 manifest.json');
  let manifest: EvidenceManifest;
  try {
    manifest = JSON.parse(await manifestFile.async('string')) as EvidenceManifest;
  } catch {
    return fail('manifest.json 不是 JSON');
  }
  if (manifest?.kind !== EVIDENCE_PACKAGE_KIND || !Array.isArray(manifest.entries) || !Array.isArray(manifest.heads))
    return fail(`manifest.json 不是证据包清单（kind ${EVIDENCE_PACKAGE_KIND}）`);

  const problems: string[] = [];
  const heads = new Map<string, ChainHead>(manifest.heads.map((h) => [h.table, h]));
  let rows = 0;
  const texts = new Map<string, Uint8Array>();
  for (const e of manifest.entries) {
    const f = zip.file(e.name);
    if (f) texts.set(e.name, await f.async('uint8array'));
  }

  // 1–2: the chained rows
  for (const e of manifest.entries) {
    if (!e.name.startsWith('chain/')) continue;
    const raw = texts.get(e.name);
    if (!raw) continue;
    let file: ChainFile;
    try {
      file = JSON.parse(Buffer.from(raw).toString('utf8')) as ChainFile;
    } catch {
      problems.push(`${e.name} 不是 JSON`);
      continue;
    }
    const head = heads.get(file.table);
    let prev: ChainFile['rows'][number] | undefined;
    for (const r of file.rows ?? []) {
      rows++;
      const where = `${file.table} id ${r.id}（链位置 ${r.seq}）`;
      const content = parseContent(r.content);
      if (rowHash(r.prevHash, r.content) !== r.rowHash) problems.push(`${where}：内容与其哈希不符（该行被修改）`);
      else if (content?.id !== r.id || content?.chain_seq !== r.seq)
        problems.push(`${where}：行号或链位置与其内容不符`);
      if (prev && r.seq === prev.seq + 1 && r.prevHash !== prev.rowHash)
        problems.push(`${where}：不接在前一行（链位置 ${prev.seq}）之后`);
      if (prev && r.seq <= prev.seq) problems.push(`${where}：链位置未按顺序排列`);
      if (!head || r.seq > head.seq)
        problems.push(`${where}：在清单所记录的链头（${head ? `链位置 ${head.seq}` : '无'}）之后`);
      else if (r.seq === head.seq && r.rowHash !== head.hash) problems.push(`${where}：与清单所记录的链头哈希不符`);
      prev = r;
    }
  }

  // 3: the manifest and the entries it hashes
  const { manifestSha256, ...body } = manifest;
  if (manifestHashOf(body) !== manifestSha256) problems.push('manifest.json 的哈希与其内容不符（清单被修改）');
  if (headsDigestOf(manifest.heads) !== manifest.headsDigest) problems.push('清单中的链头摘要与所列链头不符');
  for (const e of manifest.entries) {
    const raw = texts.get(e.name);
    if (!raw) problems.push(`${e.name}：清单中列出，但证据包中没有`);
    else if (sha256(raw) !== e.sha256) problems.push(`${e.name}：SHA-256 与清单不符（文件被修改）`);
    else if (e.rows != null && e.name.endsWith('.json')) {
      const n = (JSON.parse(Buffer.from(raw).toString('utf8')) as { rows?: unknown[] }).rows?.length;
      if (n !== e.rows) problems.push(`${e.name}：行数 ${n ?? 0} 与清单（${e.rows}）不符`);
    }
  }
  const listed = new Set([...manifest.entries.map((e) => e.name), 'manifest.json']);
  zip.forEach((name, f) => {
    if (!f.dir && !listed.has(name)) problems.push(`${name}：不在清单中（被加入证据包）`);
  });
  return { ok: problems.length === 0, manifest, rows, problems };
}
