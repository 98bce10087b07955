/**
 * The shared default page of a menu group (the legacy portal's "group index routes show a
 * shared default page"), also shown for its pages not built yet: the group's title and its pages as
 * links, so the user can always go on from here.
 */
import { Card, Col, Result, Row, Typography } from 'antd';
import { Link } from 'react-router';
import { GROUP_TITLES, ROUTES, groupPath, type GroupKey } from '@esm/contracts';
import { useMenuEntries } from './layout/menuContext.ts';
import { menuIcon } from '../components/icons.tsx';

export function GroupDefault({ group, page }: { group: string; page?: string }) {
  const entries = useMenuEntries();
  const route = page ? ROUTES.find((r) => r.group === group && r.page === page) : undefined;
  const groupTitle = GROUP_TITLES[group] ?? '档案信息';
  const groupEntry = entries.find((e) => e.router === groupPath(group as GroupKey) && e.mpid === null);
  const links = entries.filter(
    (e) =>
      e.mpid !== null &&
      e.mpid !== -1 &&
      (groupEntry ? e.mpid === groupEntry.id : e.router.startsWith(`${groupPath(group as GroupKey)}/`)),
  );
  return (
    <div data-testid="group-default">
      <Result
        status="info"
        title={route ? route.title : groupTitle}
        subTitle={
          route ? `「${route.title}」功能即将上线，敬请期待。您可以先使用本组的其他功能。` : '请选择要使用的功能。'
        }
      />
      {links.length > 0 && (
        <>
          <Typography.Title level={5}>{groupTitle}</Typography.Title>
          <Row gutter={[16, 16]}>
            {links.map((e) => (
              <Col key={e.id} xs={24} sm={12} md={8} lg={6}>
                <Link to={e.router}>
                  <Card size="small" hoverable>
                    {menuIcon(e.icon)} <span style={{ marginLeft: 8 }}>{e.cn}</span>
                  </Card>
                </Link>
              </Col>
            ))}
          </Row>
        </>
      )}
    </div>
  );
}
