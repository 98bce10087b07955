/**
 * One question as both sides see it: what was asked (the drawing version, pinned, with what
 * superseded it), its own attachments, and the thread — every step with who, when, the text, the
 * attachments and a linked change notice. The page adds its actions below (`children`).
 */
import type { ReactNode } from 'react';
import { ErrorResult } from '../../components/ErrorResult.tsx';
import { App, Alert, Button, Descriptions, Drawer, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { useMd } from '../../components/useScreen.ts';
import { EyeOutlined, PaperClipOutlined } from '@ant-design/icons';
import { HANDLING_ROLE_LABELS, ISSUE_ACTION_LABELS, type AttachmentRow, type IssueDetail } from '@esm/contracts';
import { formatDateTime, formatFileSize } from '../../components/labels.tsx';
import { serverErrorText } from '../../components/serverErrors.ts';
import { downloadAttachment, type Side } from './api.ts';
import { IssueStatusTag, OverdueTag } from './labels.tsx';
import { ClearOfToasts } from '../../components/ClearOfToasts.tsx';

function Attachments({ side, rows }: { side: Side; rows: AttachmentRow[] }) {
  const { message } = App.useApp();
  if (rows.length === 0) return null;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4, marginTop: 4 }}>
      {rows.map((a) => (
        <Button
          key={a.id}
          size="small"
          icon={<PaperClipOutlined />}
          onClick={() =>
            downloadAttachment(side, a.id).then(
              (name) => message.success(`已下载 ${name}`),
              (e: unknown) => message.error(serverErrorText(e, '下载失败')),
            )
          }
        >
          {a.fileName}（{formatFileSize(a.fileSize)}）
        </Button>
      ))}
    </div>
  );
}

export interface IssueThreadProps {
  side: Side;
  issue: IssueDetail | undefined;
  loading: boolean;
  /** The question's failed load: shown in its place (a 404: gone or not the caller's). */
  error?: unknown;
  onRetry?: () => void;
  open: boolean;
  onClose: () => void;
  onViewDrawing: (issue: IssueDetail) => void;
  children?: ReactNode;
}

export function IssueThread({
  side,
  issue,
  loading,
  error,
  onRetry,
  open,
  onClose,
  onViewDrawing,
  children,
}: IssueThreadProps) {
  const md = useMd();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={md ? 720 : '100%'}
      title={<ClearOfToasts>{issue ? `${issue.number} ${issue.title}` : '问题详情'}</ClearOfToasts>}
      destroyOnHidden
    >
      {error && !issue ? (
        <ErrorResult error={error} onRetry={onRetry} notFound="问题不存在或无权查看" back={{ onBack: onClose }} />
      ) : loading || !issue ? (
        <Spin />
      ) : (
        <div data-testid="issue-thread">
          <Descriptions size="small" column={md ? 2 : 1} bordered>
            <Descriptions.Item label="状态">
              <IssueStatusTag status={issue.status} /> <OverdueTag overdue={issue.overdue} />
            </Descriptions.Item>
            <Descriptions.Item label="问题类型">
              {issue.problemTypeName} <Tag>{HANDLING_ROLE_LABELS[issue.role]}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="图纸" span={2}>
              <Space wrap>
                <span>
                  {issue.standardCode} {issue.fileTitle} 版本 {issue.version}
                </span>
                <Button
                  size="small"
                  icon={<EyeOutlined />}
                  onClick={() => onViewDrawing(issue)}
                  disabled={issue.fileStatus === 'OBSOLETE'}
                >
                  查看图纸
                </Button>
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="物料">
              {issue.materialCode} {issue.materialName}
            </Descriptions.Item>
            <Descriptions.Item label="产品线">{issue.productLineName}</Descriptions.Item>
            <Descriptions.Item label="供应商">{issue.supplierName}</Descriptions.Item>
            <Descriptions.Item label="采购员">{issue.purchaser ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="提问人">{issue.askedByName}</Descriptions.Item>
            {/* governed (ISSUE_COLUMNS): absent when hidden for the user */}
            {issue.assigneeName !== undefined && (
              <Descriptions.Item label="处理人">{issue.assigneeName ?? '待分派'}</Descriptions.Item>
            )}
            <Descriptions.Item label="提交时间">{formatDateTime(issue.submittedAt)}</Descriptions.Item>
            <Descriptions.Item label="答复期限">{issue.dueDate ?? '—'}</Descriptions.Item>
          </Descriptions>
          {(issue.latestVersion || issue.supersededBy.length > 0) && (
            <Alert
              style={{ marginTop: 12 }}
              type="warning"
              showIcon
              data-testid="superseded"
              title={`提问针对的版本 ${issue.version} 已被替代${issue.latestVersion ? `，现行版本为 ${issue.latestVersion}` : ''}`}
              description={issue.supersededBy.map((n) => (
                <div key={n.id}>
                  变更通知 {n.number}：{n.title}（{issue.version} → {n.newVersion}）
                </div>
              ))}
            />
          )}
          {issue.description !== undefined && (
            <>
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                问题描述
              </Typography.Title>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{issue.description}</Typography.Paragraph>
            </>
          )}
          <Attachments side={side} rows={issue.attachments} />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            往来记录
          </Typography.Title>
          <Timeline
            data-testid="issue-messages"
            items={issue.messages.map((m) => ({
              color: m.action === 'REPLY' ? 'green' : m.action === 'REOPEN' ? 'orange' : 'blue',
              key: m.id,
              children: (
                <div data-testid={`message-${m.action}`}>
                  <Space size={6} wrap>
                    <Typography.Text strong>{ISSUE_ACTION_LABELS[m.action]}</Typography.Text>
                    {/* no author: 回复人 is hidden for this user type (the column permissions) */}
                    <span>{m.userName ?? '已隐藏'}</span>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {formatDateTime(m.createdAt)}
                    </Typography.Text>
                  </Space>
                  {m.text && <div style={{ whiteSpace: 'pre-wrap' }}>{m.text}</div>}
                  {m.notice && (
                    <div>
                      <Tag color="blue">关联变更通知 {m.notice.number}</Tag>
                      {m.notice.title}
                    </div>
                  )}
                  <Attachments side={side} rows={m.attachments} />
                </div>
              ),
            }))}
          />
          {children}
        </div>
      )}
    </Drawer>
  );
}
