/**
 * Pure menu logic, the legacy portal's rules: which entries the side menu shows, which one is selected for a
 * path, and the breadcrumb for a path. Unit-tested in menuTree.test.ts.
 */
import { BASE_PATH, FIXED_CRUMBS, GROUPS, MENU_RULES, groupPath, routeByPath, type MenuEntry } from '@esm/contracts';

export interface MenuNode {
  entry: MenuEntry;
  children: MenuNode[];
}

/** The side menu: top level in order; hidden (mpid -1) and skipped (ids 18, 19) entries left out. */
export function sideMenuTree(entries: MenuEntry[]): MenuNode[] {
  const visible = entries.filter(
    (e) => e.mpid !== MENU_RULES.hiddenMpid && !(MENU_RULES.skippedIds as readonly number[]).includes(e.id),
  );
  return (
    visible
      .filter((e) => e.mpid === null)
      .map((e) => ({
        entry: e,
        children: visible.filter((c) => c.mpid === e.id).map((c) => ({ entry: c, children: [] })),
      }))
      // a group whose every entry is hidden or skipped has nothing to open: leave it out
      .filter((n) => n.children.length > 0 || !entries.some((c) => c.mpid === n.entry.id))
  );
}

/** The entry whose router matches the path: exact first, then the longest prefix. */
export function matchEntry(entries: MenuEntry[], pathname: string): MenuEntry | undefined {
  const path = pathname.replace(/\/+$/, '');
  const exact = entries.find((e) => e.router === path);
  if (exact) return exact;
  return entries
    .filter((e) => e.router !== BASE_PATH && path.startsWith(`${e.router}/`))
    .sort((a, b) => b.router.length - a.router.length)[0];
}

/** The side menu item to highlight: the matched entry, or for a hidden/skipped page its group. */
export function selectedKey(entries: MenuEntry[], pathname: string): string | undefined {
  const e = matchEntry(entries, pathname);
  return e ? String(e.id) : undefined;
}

export interface Crumb {
  title: string;
  path?: string;
}

/**
 * The breadcrumb from PAGES: group → page (a page reached from another page, or a top-level one:
 * the page alone); fixed titles for the paths the legacy portal lists; a not-found crumb for
 * anything else. A page outside the user's menu gets its own title too (the page says 没有权限).
 */
export function breadcrumb(pathname: string): Crumb[] {
  const rel = pathname.startsWith(BASE_PATH) ? pathname.slice(BASE_PATH.length).replace(/\/+$/, '') : pathname;
  const fixed = FIXED_CRUMBS[rel];
  if (fixed) return [{ title: fixed }];
  const page = routeByPath.get(pathname.replace(/\/+$/, ''));
  if (!page) return [{ title: '页面不存在' }];
  return page.group && page.menu.parent !== MENU_RULES.hiddenMpid
    ? [{ title: GROUPS[page.group].title, path: groupPath(page.group) }, { title: page.title }]
    : [{ title: page.title }];
}

/** The menu name of a path, for the user_visit event. */
export function menuName(entries: MenuEntry[], pathname: string, fallback: string): string {
  return entries.find((e) => e.router === pathname.replace(/\/+$/, ''))?.cn ?? fallback;
}

/**
 * Open groups: those always open (groups 1 and 14), the group holding the current page
 * (so a navigation never needs an extra click to see where one is), and the user's own.
 */
export function openKeys(saved: string[], entries: MenuEntry[], pathname?: string): string[] {
  const forced = MENU_RULES.openGroupIds.filter((id) => entries.some((e) => e.id === id)).map(String);
  const current = pathname ? matchEntry(entries, pathname) : undefined;
  const group =
    current && current.mpid !== null && current.mpid !== MENU_RULES.hiddenMpid ? [String(current.mpid)] : [];
  return Array.from(new Set([...forced, ...group, ...saved]));
}
