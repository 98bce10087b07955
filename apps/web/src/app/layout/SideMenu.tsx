import { Menu } from 'antd';
import type { MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import type { MenuEntry } from '@esm/contracts';
import { menuIcon } from '../../components/icons.tsx';
import { useOpenKeys } from '../preferences.ts';
import { openKeys as withForcedOpen, selectedKey, sideMenuTree } from './menuTree.ts';

/** Inline menu from the server's entries (spec §2): groups 1 and 14 always open. */
export function SideMenu({ entries, collapsed, dark }: { entries: MenuEntry[]; collapsed: boolean; dark: boolean }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [saved, setSaved] = useOpenKeys();
  const items: MenuProps['items'] = sideMenuTree(entries).map((n) =>
    n.children.length
      ? { key: String(n.entry.id), icon: menuIcon(n.entry.icon), label: n.entry.cn, children: n.children.map((c) => ({ key: String(c.entry.id), label: c.entry.cn, icon: menuIcon(c.entry.icon) })) }
      : { key: String(n.entry.id), icon: menuIcon(n.entry.icon), label: n.entry.cn },
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
      onClick={({ key }) => {
        const e = entries.find((x) => String(x.id) === key);
        if (e) navigate(e.router);
      }}
      style={{ borderInlineEnd: 0 }}
    />
  );
}
