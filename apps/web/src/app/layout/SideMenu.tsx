import { Menu } from 'antd';
import type { MenuProps } from 'antd';
import { Link, useLocation, useNavigate } from 'react-router';
import type { MenuEntry } from '@esm/contracts';
import { menuIcon } from '../../components/icons.tsx';
import { useOpenKeys } from '../../lib/preferences.ts';
import { openKeys as withForcedOpen, selectedKey, sideMenuTree } from './menuTree.ts';

/**
 * A page's entry: a real link, so that a middle click or 在新标签页中打开 opens the page in a new tab
 * (a click handler that navigates cannot); an ordinary click is the router's navigation.
 */
const pageLink = (e: MenuEntry) => (e.router ? <Link to={e.router}>{e.cn}</Link> : e.cn);

/** Inline menu from the server's entries: groups 1 and 14 always open. */
export function SideMenu({ entries, collapsed, dark }: { entries: MenuEntry[]; collapsed: boolean; dark: boolean }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [saved, setSaved] = useOpenKeys();
  const items: MenuProps['items'] = sideMenuTree(entries).map((n) =>
    n.children.length
      ? {
          key: String(n.entry.id),
          icon: menuIcon(n.entry.icon),
          label: n.entry.cn,
          children: n.children.map((c) => ({
            key: String(c.entry.id),
            label: pageLink(c.entry),
            icon: menuIcon(c.entry.icon),
          })),
        }
      : { key: String(n.entry.id), icon: menuIcon(n.entry.icon), label: pageLink(n.entry) },
  );
  const selected = selectedKey(entries, pathname);
  return (
    <Menu
      mode="inline"
      theme={dark ? 'dark' : 'light'}
      items={items}
      selectedKeys={selected ? [selected] : []}
      {...(collapsed ? {} : { openKeys: withForcedOpen(saved, entries, pathname) })}
      onOpenChange={(keys) => setSaved(keys.map(String))}
      // a click beside the link's text (the folded menu's icon): the link's navigation all the same
      onClick={({ key, domEvent }) => {
        if ((domEvent.target as Element).closest('a')) return;
        const e = entries.find((x) => String(x.id) === key);
        if (e?.router) navigate(e.router);
      }}
      style={{ borderInlineEnd: 0 }}
    />
  );
}
