import { describe, expect, it } from 'vitest';
import type { MenuEntry } from '@esm/contracts';
import { breadcrumb, matchEntry, menuName, openKeys, selectedKey, sideMenuTree } from './menuTree.ts';
import { PAGES } from '@esm/contracts';

const e = (id: number, cn: string, router: string, mpid: number | null): MenuEntry => ({
  id,
  cn,
  name: router.split('/').pop()!,
  icon: null,
  router,
  mpid,
});

const MENU: MenuEntry[] = [
  e(2, '档案信息', PAGES.dashboard.path, null),
  e(1, '图纸管理', '/esm/drawingManagement', null),
  e(3, '会签单列表', PAGES.countersignList.path, 1),
  e(11, '图纸变更通知单', PAGES.noticeOfChangeOfDrawingsHR.path, -1),
  e(18, '图纸档案信息', PAGES.drawingsAndArchivesInformation.path, 1),
  e(14, '图纸授权', '/esm/drawingAuthorization', null),
  e(19, '未授权图纸档案信息', PAGES.noDrawingAndArchivesInformation.path, 14),
  e(60, '系统管理', '/esm/system', null),
  e(61, '访问日志', PAGES.visitLog.path, 60),
];

describe('side menu tree', () => {
  const tree = sideMenuTree(MENU);
  it('keeps top-level items and groups in order, with their visible children', () => {
    expect(tree.map((n) => n.entry.id)).toEqual([2, 1, 60]);
    expect(tree.find((n) => n.entry.id === 1)!.children.map((c) => c.entry.id)).toEqual([3]);
  });
  it('hides mpid -1 entries and skips ids 18 and 19', () => {
    const ids = tree.flatMap((n) => [n.entry.id, ...n.children.map((c) => c.entry.id)]);
    expect(ids).not.toContain(11);
    expect(ids).not.toContain(18);
    expect(ids).not.toContain(19);
  });
  it('drops a group whose every entry is hidden or skipped', () => {
    expect(tree.map((n) => n.entry.id)).not.toContain(14);
  });
});

describe('selection and breadcrumb', () => {
  it('selects the entry matching the path, exact or by the longest prefix', () => {
    expect(selectedKey(MENU, PAGES.visitLog.path)).toBe('61');
    expect(matchEntry(MENU, '/esm/system/visitLog/detail')?.id).toBe(61);
    expect(selectedKey(MENU, '/esm/elsewhere')).toBeUndefined();
  });
  it('builds group → page crumbs from PAGES', () => {
    expect(breadcrumb(PAGES.countersignList.path)).toEqual([
      { title: '图纸管理', path: '/esm/drawingManagement' },
      { title: '会签单列表' },
    ]);
  });
  it('a hidden entry has no parent crumb', () => {
    expect(breadcrumb(PAGES.noticeOfChangeOfDrawingsHR.path)).toEqual([{ title: '图纸变更通知单' }]);
  });
  it('uses the fixed titles of the legacy portal and a not-found crumb otherwise', () => {
    expect(breadcrumb('/esm/permissionCenter/agent')).toEqual([{ title: '待办' }]);
    expect(breadcrumb('/esm/quota/myCompleted')).toEqual([{ title: '已完成' }]);
    expect(breadcrumb('/esm/nope')).toEqual([{ title: '页面不存在' }]);
  });
  it('names the page of a visit', () => {
    expect(menuName(MENU, '/esm/system/visitLog/', 'x')).toBe('访问日志');
    expect(menuName(MENU, '/esm/nope', '页面不存在')).toBe('页面不存在');
  });
});

describe('open groups', () => {
  it('forces groups 1 and 14 open when present, keeping the user’s own', () => {
    expect(openKeys(['60'], MENU)).toEqual(['1', '14', '60']);
    expect(
      openKeys(
        [],
        MENU.filter((m) => m.id !== 14 && m.mpid !== 14),
      ),
    ).toEqual(['1']);
  });
  it('opens the group holding the current page', () => {
    expect(openKeys([], MENU, PAGES.visitLog.path)).toEqual(['1', '14', '60']);
    expect(openKeys([], MENU, PAGES.dashboard.path)).toEqual(['1', '14']);
    // a hidden page has no group to open
    expect(openKeys([], MENU, PAGES.noticeOfChangeOfDrawingsHR.path)).toEqual(['1', '14']);
  });
});
