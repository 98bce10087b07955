/**
 * The web side of the pages' declaration: every page of the contracts' PAGES has its component
 * here, except the pages PAGES marks as showing their group's default page (and those have none).
 */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '@esm/contracts/basics';
import { PAGE_MODULES } from './pages.ts';

describe('page components', () => {
  it('every declared page has a component, or is explicitly its group’s default page', () => {
    const built = new Set(Object.keys(PAGE_MODULES));
    expect(ROUTES.filter((p) => !p.groupDefault && !built.has(p.key)).map((p) => p.key)).toEqual([]);
    expect(ROUTES.filter((p) => p.groupDefault && built.has(p.key)).map((p) => p.key)).toEqual([]);
  });

  it('every component belongs to a declared page', () => {
    const declared = new Set(ROUTES.map((p) => p.key));
    expect(Object.keys(PAGE_MODULES).filter((k) => !declared.has(k))).toEqual([]);
  });
});
