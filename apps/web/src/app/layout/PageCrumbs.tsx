import { Breadcrumb, Button } from 'antd';
import { ArrowLeftOutlined, HomeOutlined } from '@ant-design/icons';
import { Link, useLocation, useNavigate } from 'react-router';
import { routeByPath } from '@esm/contracts';
import { useCurrentUser } from '../SessionGate.tsx';
import { breadcrumb } from './menuTree.ts';

/** Breadcrumb from PAGES; the three drawing-information pages get "返回上一级". */
export function PageCrumbs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const crumbs = breadcrumb(pathname);
  const back = routeByPath.get(pathname.replace(/\/+$/, ''))?.back;
  return (
    <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', minHeight: 32 }}>
      <Breadcrumb
        data-testid="breadcrumb"
        items={[
          {
            title: (
              <Link to={user.defaultPath} aria-label="首页">
                <HomeOutlined />
              </Link>
            ),
          },
          // the page's own name, its last crumb, is the page's heading (screen readers jump to it)
          ...crumbs.map((c, i) => {
            const text = c.path ? <Link to={c.path}>{c.title}</Link> : c.title;
            return { title: i === crumbs.length - 1 ? <h1 className="esm-page-title">{text}</h1> : text };
          }),
        ]}
      />
      {back && (
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
          返回上一级
        </Button>
      )}
    </div>
  );
}
