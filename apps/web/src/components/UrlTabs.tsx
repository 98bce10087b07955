/**
 * Tabs whose active tab lives in the address (`?tab=`), so 返回 from a detail page, a reload or a
 * shared link comes back to the same tab. The first tab is the default and leaves the address bare.
 * Hidden tabs are unmounted: each keeps its own filters only while it is shown.
 */
import { Tabs, type TabsProps } from 'antd';
import { useSearchParams } from 'react-router';

type Item = NonNullable<TabsProps['items']>[number] & { key: string };

export function UrlTabs({ items }: { items: Item[] }) {
  const [params, setParams] = useSearchParams();
  const first = items[0]?.key;
  const active = items.some((i) => i.key === params.get('tab')) ? params.get('tab')! : first;
  return (
    <Tabs
      activeKey={active}
      onChange={(key) => setParams(key === first ? {} : { tab: key }, { replace: true })}
      destroyOnHidden
      items={items}
    />
  );
}
