/**
 * The menu tree — reference data the portal needs in every installation, upserted at every start
 * (seed.ts) — as rows of menu_entry and menu_grant, derived from the pages' declaration (PAGES):
 * a group's row goes just before its first page, and a row's place is its `sort`.
 */
import { GROUPS, ROUTES, groupPath, type GroupKey } from '@esm/contracts';

export interface MenuSeed {
  id: number;
  cn: string;
  name: string;
  icon: string | null;
  router: string;
  mpid: number | null;
  types: number[];
}

function menuRows(): MenuSeed[] {
  const rows: MenuSeed[] = [];
  const placed = new Set<string>();
  for (const p of ROUTES) {
    if (p.group && !placed.has(p.group)) {
      placed.add(p.group);
      const g = GROUPS[p.group as GroupKey];
      rows.push({
        id: g.id,
        cn: g.title,
        name: p.group,
        icon: g.icon,
        router: groupPath(p.group),
        mpid: null,
        types: [...g.types],
      });
    }
    rows.push({
      id: p.menu.id,
      cn: p.title,
      name: p.page,
      icon: p.menu.icon,
      router: p.path,
      mpid: p.menu.parent,
      types: [...p.menu.types],
    });
  }
  return rows;
}

export const MENU: MenuSeed[] = menuRows();
