/**
 * 未授权图纸档案信息 (/esm/drawingAuthorization/noDrawingAndArchivesInformation), reached from the
 * census (?supplierCode=; the layout adds 返回上一级): one supplier's materials without a valid
 * grant — never granted, expired, or not yet in force — with their current drawings, as a tree
 * by product line. A drawing can be opened here (the view is logged as any other).
 */
import { useState, type ComponentProps } from 'react';
import { Button, Empty, Spin, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { Link, useSearchParams } from 'react-router';
import type { FileType, UnauthorizedTree } from '@esm/contracts';
import { ErrorResult } from '../../../components/ErrorResult.tsx';
import { RemoteSelect } from '../../../components/RemoteSelect.tsx';
import { supplierSource } from '../../../components/supplierSource.ts';
import { FileViewer } from '../../files/index.ts';
import { useUnauthorizedTree } from '../api.ts';
import { GrantStateTag, Notice, minute } from '../labels.tsx';
import { APPROVE_PAGE, reportLink } from '../links.ts';

type ViewerFile = NonNullable<ComponentProps<typeof FileViewer>['file']>;
type File = UnauthorizedTree['productLines'][number]['materials'][number]['files'][number];

function treeData(tree: UnauthorizedTree, view: (f: File) => void): DataNode[] {
  return tree.productLines.map((line) => ({
    key: `pl:${line.code}`,
    title: (
      <Typography.Text strong>
        {line.name}（{line.materials.length} 个物料）
      </Typography.Text>
    ),
    children: line.materials.map((m) => ({
      key: `m:${m.code}`,
      title: (
        <span data-testid={`unauthorized-${m.code}`}>
          {m.code} {m.name} <GrantStateTag state={m.grantState} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {m.grantState === 'EXPIRED' && `已于 ${minute(m.validUntil)} 过期`}
            {m.grantState === 'NOT_YET' && `自 ${minute(m.validFrom)} 起生效`}
            {m.grantState === 'NONE' && '从未授权'}
          </Typography.Text>
          {m.pendingApplicationId && (
            <Link to={`${APPROVE_PAGE}`} style={{ marginLeft: 8 }}>
              <Tag color="processing">申请 {m.pendingApplicationId} 审批中</Tag>
            </Link>
          )}
        </span>
      ),
      children: m.files.length
        ? m.files.map((f) => ({
            key: `f:${f.id}`,
            isLeaf: true,
            title: (
              <span>
                {f.standardCode} {f.name} <Typography.Text type="secondary">{f.version}</Typography.Text>{' '}
                {f.viewable ? (
                  <Button type="link" size="small" onClick={() => view(f)}>
                    查看
                  </Button>
                ) : (
                  <Tag>{f.fileType.toUpperCase()}</Tag>
                )}
                <Link to={reportLink({ standardCode: f.standardCode })}>
                  <Button type="link" size="small">
                    访问报告
                  </Button>
                </Link>
              </span>
            ),
          }))
        : [
            {
              key: `none:${m.code}`,
              isLeaf: true,
              title: <Typography.Text type="secondary">暂无生效图纸</Typography.Text>,
            },
          ],
    })),
  }));
}

export default function NoDrawingAndArchivesInformationPage() {
  const [params, setParams] = useSearchParams();
  const supplierCode = params.get('supplierCode')?.trim().slice(0, 32) || undefined;
  const tree = useUnauthorizedTree(supplierCode);
  const [viewing, setViewing] = useState<ViewerFile | null>(null);
  const materials = tree.data?.productLines.reduce((n, l) => n + l.materials.length, 0) ?? 0;

  return (
    <div>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 16 }}>
        <Typography.Text>供应商</Typography.Text>
        <RemoteSelect
          source={supplierSource}
          label="选择供应商"
          width={280}
          value={supplierCode}
          onChange={(v) => setParams(v ? { supplierCode: v } : {})}
        />
      </div>
      {!supplierCode ? (
        <Empty description="请选择供应商（或从「供应商统计」进入），查看其没有有效授权的物料及图纸" />
      ) : tree.isError ? (
        <ErrorResult error={tree.error} onRetry={() => tree.refetch()} />
      ) : !tree.data ? (
        <Spin />
      ) : (
        <>
          <Notice kind={materials ? 'warning' : 'success'} testId="unauthorized-summary">
            {tree.data.supplierCode} {tree.data.supplierName}：供货物料 {tree.data.supplied} 个，其中 {materials}{' '}
            个没有有效授权
            {materials ? '，供应商看不到这些物料的图纸。' : '。'}
          </Notice>
          {materials === 0 ? (
            <Empty description="该供应商的所有供货物料均有有效授权" />
          ) : (
            <Tree
              blockNode
              selectable={false}
              defaultExpandAll
              treeData={treeData(tree.data, (f) => setViewing({ ...f, fileType: f.fileType as FileType }))}
              data-testid="unauthorized-tree"
            />
          )}
        </>
      )}
      <FileViewer file={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
