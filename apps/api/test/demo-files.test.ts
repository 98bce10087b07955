/**
 * The demo archive's drawings drawn at build time (src/db/demo-files.ts): the build
 * writes them with a manifest, a later build with the same inputs draws nothing, and the seed
 * finds a prepared drawing by its inputs — and none for a drawing the build did not make (the
 * seed then draws it itself, as without a build).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_DRAWINGS } from '../src/modules/archives/demo.ts';
import { preparedDemoFiles, writeDemoFiles, type DemoDrawingSpec } from '../src/db/demo-files.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'esm-demo-files-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('demo files drawn at build time', () => {
  const dir = path.join(tmp, 'demo-files');
  // one of each kind the archive holds
  const specs = (['pdf', 'png', 'dxf'] as const).map((type) => DEMO_DRAWINGS.find((s) => s.type === type)!);

  it('draws every drawing once, then finds each by its inputs; a second build with the same inputs draws nothing', async () => {
    expect(specs.every(Boolean)).toBe(true);
    expect(await writeDemoFiles(specs, dir)).toBe(true);
    const find = preparedDemoFiles(dir);
    const heads = specs.map((s) => readFileSync(find(s)!).subarray(0, 8));
    expect(heads[0]!.toString('latin1')).toMatch(/^%PDF-/);
    expect(heads[1]!.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(heads[2]!.toString('latin1')).toBe('0\r\nSECTI');
    const written = statSync(find(specs[0]!)!).mtimeMs;
    expect(await writeDemoFiles(specs, dir)).toBe(false);
    expect(statSync(find(specs[0]!)!).mtimeMs).toBe(written);
  });

  it('has nothing for a drawing the build did not make, nor without a build', () => {
    const other: DemoDrawingSpec = { ...specs[0]!, version: 'Z' };
    expect(preparedDemoFiles(dir)(other)).toBeNull();
    expect(preparedDemoFiles(path.join(tmp, 'none'))(specs[0]!)).toBeNull();
  });
});
