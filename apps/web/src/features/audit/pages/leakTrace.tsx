/**
 * 泄露追溯 (/esm/system/leakTrace — not in the legacy spec): a drawing found outside the company
 * leads back to the copy it came from. Every copy the portal sends carries a copy code in its
 * watermark (and a PDF in its metadata): type the code read off a photo or a print, or upload the
 * PDF, and see whose copy it was — who, which supplier, which version, when, from which address,
 * and the row's place in the tamper-evident chain.
 */
import { useState, type ReactNode } from 'react';
import { Alert, Button, Descriptions, Form, Input, Space, Tag, Typography, Upload } from 'antd';
import { SearchOutlined, UploadOutlined } from '@ant-design/icons';
import { LOG_ACTION_LABELS, USER_TYPE_LABELS, type CopyTrace, type LogAction } from '@esm/contracts';
import { ApiError } from '../../../api/client.ts';
import { formatDateTime } from '../../../components/labels.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { useMd } from '../../../components/useScreen.ts';
import { traceByCode, traceByFile } from '../api.ts';

const DELIVERED: Record<CopyTrace['delivered'], ReactNode> = {
  COMPLETE: <Tag color="green">已完整送达</Tag>,
  INCOMPLETE: <Tag color="orange">未完整送达</Tag>,
  UNKNOWN: <Tag>未记录送达结果</Tag>,
};

function TraceResult({ r }: { r: CopyTrace }) {
  // on a phone each label above its value: a label column beside it would be a character wide
  const wide = useMd();
  return (
    <Descriptions
      data-testid="trace-result"
      size="small"
      bordered
      layout={wide ? 'horizontal' : 'vertical'}
      column={{ xs: 1, md: 2 }}
      items={[
        {
          key: 'code',
          label: '复制码',
          children: `${r.copyCode.slice(0, 5)}-${r.copyCode.slice(5)}（${r.foundIn === 'PDF' ? '读自 PDF 元数据' : '手工输入'}）`,
        },
        {
          key: 'action',
          label: '操作',
          children: `${LOG_ACTION_LABELS[r.action as LogAction] ?? r.action}（访问记录 ${r.logId}）`,
        },
        {
          key: 'who',
          label: '接收人',
          children: `${r.userName}（${r.userAccount}，${USER_TYPE_LABELS[r.userType as keyof typeof USER_TYPE_LABELS] ?? r.userType}）`,
        },
        {
          key: 'supplier',
          label: '供应商',
          children: r.supplierCode ? `${r.supplierCode} ${r.supplierName ?? ''}` : '内部用户',
        },
        { key: 'file', label: '文件', children: `${r.standardCode ?? '—'} ${r.fileName ?? ''}` },
        { key: 'version', label: '版本', children: r.version ?? '—' },
        {
          key: 'material',
          label: '物料',
          children: r.materialCode ? `${r.materialCode} ${r.materialName ?? ''}` : '—',
        },
        { key: 'at', label: '时间', children: formatDateTime(r.createdAt) },
        { key: 'ip', label: 'IP地址', children: r.ip ?? '—' },
        { key: 'delivered', label: '送达', children: DELIVERED[r.delivered] },
        {
          key: 'chain',
          label: '审计链',
          span: 2,
          children: r.chainSeq ? (
            <span>
              访问日志链第 {r.chainSeq} 行，哈希{' '}
              <Typography.Text code copyable style={{ fontSize: 12, wordBreak: 'break-all' }}>
                {r.rowHash}
              </Typography.Text>
            </span>
          ) : (
            '不在链中'
          ),
        },
      ]}
    />
  );
}

export default function LeakTracePage() {
  const [form] = Form.useForm<{ code: string }>();
  const [result, setResult] = useState<CopyTrace | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'code' | 'file' | null>(null);

  const run = async (kind: 'code' | 'file', fn: () => Promise<CopyTrace>) => {
    setBusy(kind);
    setError(null);
    setResult(null);
    form.setFields([{ name: 'code', errors: [] }]);
    try {
      setResult(await fn());
    } catch (e) {
      const field = e instanceof ApiError ? e.errors.find((x) => x.field === 'code') : undefined;
      if (field) form.setFields([{ name: 'code', errors: [field.message] }]);
      else setError(serverErrorText(e, '查询失败'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div>
      <Typography.Paragraph type="secondary">
        每份查看、打印、下载的副本，水印上都有复制码（如 AB3DE-7GH9K），PDF
        的元数据中也有。输入照片或打印件上的复制码，或上传在外部发现的 PDF，即可查到这份副本的接收人。
      </Typography.Paragraph>
      <Space wrap align="start" style={{ marginBottom: 16 }}>
        <Form
          form={form}
          layout="inline"
          name="trace-code"
          onFinish={(v) => run('code', () => traceByCode(v.code))}
          style={{ rowGap: 12 }}
        >
          <Form.Item name="code" rules={[{ required: true, whitespace: true, message: '请输入复制码' }]}>
            <Input
              allowClear
              placeholder="复制码，如 AB3DE-7GH9K"
              aria-label="复制码"
              style={{ width: 220 }}
              maxLength={40}
            />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={busy === 'code'}>
              查询
            </Button>
          </Form.Item>
        </Form>
        <Upload
          accept=".pdf,application/pdf"
          showUploadList={false}
          beforeUpload={(file) => {
            void run('file', () => traceByFile(file));
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy === 'file'}>
            上传外部发现的 PDF
          </Button>
        </Upload>
      </Space>
      {error && <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 12 }} />}
      {result && <TraceResult r={result} />}
    </div>
  );
}
