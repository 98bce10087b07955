/**
 * 新建 / 编辑授权申请: the materials (only those the supplier supplies, each with its grant now
 * and any application waiting on it), the period (from today, at most the configured number of
 * days) and the reason. 保存草稿 keeps it; 提交申请 saves and submits it — through the
 * confidentiality gate, since submitting needs the current agreement accepted. The form checks
 * with the server's own schema; the server's field errors land on their fields.
 */
import { useEffect, useState } from 'react';
import { App, Button, Col, DatePicker, Form, Input, Modal, Row, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { z } from 'zod';
import { ZCreateApplyRequestSchema, type ApplyMaterial, type ApplyOptions } from '@esm/contracts';
import { ApiError } from '../../api/client.ts';
import { validValues, zodRule } from '../../components/zodRule.ts';
import { serverErrorText } from '../../components/serverErrors.ts';
import type { Run } from '../files/index.ts';
import { createApply, submitApply, updateApply } from './api.ts';
import { CodeName, ExpiringTag, GrantStateTag, Notice, minute } from './labels.tsx';

/** What the form starts from: an existing draft (id), or a prefill (续期, 再次申请). */
export interface ApplyDraft {
  id?: number;
  materialCodes: string[];
  validFrom?: string;
  validUntil?: string;
  reason?: string;
  renewsGrantId?: number | null;
}

interface Values {
  materialCodes: string[];
  validFrom?: Dayjs;
  validUntil?: Dayjs;
  reason?: string;
}

const field = ZCreateApplyRequestSchema.shape;
const DAY = 'YYYY-MM-DD';
const dayRule = (schema: z.ZodType) => zodRule(z.preprocess((v) => (dayjs.isDayjs(v) ? v.format(DAY) : v), schema));

function MaterialPicker({
  options,
  value = [],
  onChange,
  ownId,
}: {
  options: ApplyOptions;
  value?: string[];
  onChange?: (v: string[]) => void;
  ownId?: number;
}) {
  const waiting = (m: ApplyMaterial) => m.pendingApplicationId !== null && m.pendingApplicationId !== ownId;
  const columns: ColumnsType<ApplyMaterial> = [
    {
      title: '物料',
      dataIndex: 'code',
      width: 180,
      render: (code: string, m) => <CodeName code={code} name={m.name} width={170} />,
    },
    { title: '产品线', dataIndex: 'productLineName', width: 80 },
    {
      title: '当前授权',
      key: 'grant',
      render: (_: unknown, m) => (
        <div style={{ lineHeight: 1.6 }}>
          <GrantStateTag state={m.grantState} />
          {m.expiringSoon && <ExpiringTag />}
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {m.grantState === 'VALID' && `有效期至 ${minute(m.validUntil)}`}
              {m.grantState === 'NOT_YET' && `自 ${minute(m.validFrom)} 起生效`}
              {m.grantState === 'EXPIRED' && `已于 ${minute(m.validUntil)} 过期`}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    {
      title: '待审批',
      key: 'pending',
      width: 110,
      render: (_: unknown, m) =>
        waiting(m) ? <Tag color="processing">申请 {m.pendingApplicationId} 审批中</Tag> : '—',
    },
  ];
  return (
    <Table<ApplyMaterial>
      rowKey="code"
      size="small"
      columns={columns}
      dataSource={options.materials}
      pagination={false}
      scroll={{ y: 240 }}
      locale={{ emptyText: '贵公司暂无供货物料，无法申请图纸授权' }}
      data-testid="material-picker"
      rowSelection={{
        selectedRowKeys: value,
        onChange: (keys) => onChange?.(keys as string[]),
        getCheckboxProps: (m) => ({
          disabled: waiting(m) && !value.includes(m.code),
          'aria-label': `选择物料 ${m.code}`,
        }),
        renderCell: (_checked, m, _i, node) =>
          waiting(m) && !value.includes(m.code) ? (
            <Tooltip title="该物料已有待审批的申请，请等待审批结果">{node}</Tooltip>
          ) : (
            node
          ),
      }}
    />
  );
}

export interface ApplyFormProps {
  draft: ApplyDraft | null;
  options: ApplyOptions | undefined;
  run: Run;
  onClose: () => void;
  /** Something was saved (the lists are stale). */
  onSaved: () => void;
}

export function ApplyForm({ draft, options, run, onClose, onSaved }: ApplyFormProps) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<'save' | 'submit' | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  // a new application becomes a draft at its first save: later saves update that draft
  const [savedId, setSavedId] = useState<number | undefined>(undefined);
  const id = draft?.id ?? savedId;
  const from = Form.useWatch('validFrom', form);
  const until = Form.useWatch('validUntil', form);
  const today = options ? dayjs(options.today) : dayjs().startOf('day');
  const max = options?.maxPeriodDays ?? 365;
  const initial = (d: ApplyDraft): Values => ({
    materialCodes: d.materialCodes,
    validFrom: d.validFrom ? dayjs(d.validFrom) : today,
    validUntil: d.validUntil ? dayjs(d.validUntil) : today.add(max - 1, 'day'),
    reason: d.reason,
  });

  // Each opening starts from its own draft: reopened before the closing dialog was destroyed, the
  // form would otherwise keep the previous one's values (and save into the previous draft).
  useEffect(() => {
    if (!draft) return;
    setSavedId(undefined);
    setRefusal(null);
    form.resetFields();
    form.setFieldsValue(initial(draft));
    // only a new draft resets the form
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft]);

  const save = async (andSubmit: boolean) => {
    setRefusal(null);
    const v = await validValues(form);
    if (!v) return;
    const body = {
      materialCodes: v.materialCodes,
      validFrom: v.validFrom!.format(DAY),
      validUntil: v.validUntil!.format(DAY),
      reason: v.reason!.trim(),
      renewsGrantId: draft?.renewsGrantId ?? undefined,
    };
    setBusy(andSubmit ? 'submit' : 'save');
    let saved = false;
    try {
      const row = id ? await updateApply({ id, ...body }) : await createApply(body);
      setSavedId(row.id);
      saved = true;
      if (!andSubmit) {
        message.success(`已保存草稿（申请 ${row.id}）`);
        onSaved();
        onClose();
        return;
      }
      const submitted = await run(() => submitApply(row.id));
      onSaved();
      if (!submitted) {
        setRefusal('已保存为草稿。提交申请前须阅读并签署保密协议。');
        return;
      }
      message.success(`申请 ${row.id} 已提交，等待审批`);
      onClose();
    } catch (e) {
      if (saved) onSaved();
      const known = new Set(['materialCodes', 'validFrom', 'validUntil', 'reason']);
      const fieldErrors = e instanceof ApiError ? e.errors.filter((f) => known.has(f.field.split('.')[0]!)) : [];
      if (fieldErrors.length)
        form.setFields(fieldErrors.map((f) => ({ name: f.field.split('.')[0] as keyof Values, errors: [f.message] })));
      const prefix = saved ? '已保存为草稿，但未能提交：' : '';
      if (!fieldErrors.length || saved) setRefusal(prefix + serverErrorText(e, andSubmit ? '提交失败' : '保存失败'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      open={draft !== null}
      title={draft?.id ? `编辑申请 ${draft.id}` : draft?.renewsGrantId ? '续期申请' : '新建授权申请'}
      width={820}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      afterClose={() => {
        setSavedId(undefined);
        setRefusal(null);
      }}
      footer={[
        <Button key="cancel" onClick={onClose} disabled={busy !== null}>
          取消
        </Button>,
        <Button key="save" onClick={() => save(false)} loading={busy === 'save'} disabled={busy === 'submit'}>
          保存草稿
        </Button>,
        <Button
          key="submit"
          type="primary"
          onClick={() => save(true)}
          loading={busy === 'submit'}
          disabled={busy === 'save'}
        >
          提交申请
        </Button>,
      ]}
    >
      {refusal && (
        <Notice kind="error" testId="apply-refusal">
          {refusal}
        </Notice>
      )}
      {draft && options && (
        <Form<Values>
          form={form}
          name="empower-apply"
          layout="vertical"
          preserve={false}
          initialValues={initial(draft)}
        >
          <Form.Item
            name="materialCodes"
            label="申请的物料（仅限贵公司供货的物料）"
            required
            rules={[zodRule(field.materialCodes)]}
          >
            <MaterialPicker options={options} ownId={draft.id} />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} sm={8}>
              <Form.Item
                name="validFrom"
                label="开始日期"
                required
                rules={[dayRule(field.validFrom)]}
                extra={`最早为今天（${options.today}）`}
              >
                <DatePicker
                  style={{ width: '100%' }}
                  disabledDate={(d) => d.isBefore(today, 'day')}
                  placeholder="请选择开始日期"
                />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item
                name="validUntil"
                label="截止日期"
                required
                dependencies={['validFrom']}
                rules={[dayRule(field.validUntil)]}
                extra={`含当天；期限最长 ${max} 天`}
              >
                <DatePicker
                  style={{ width: '100%' }}
                  placeholder="请选择截止日期"
                  disabledDate={(d) => {
                    const start = from ?? today;
                    return d.isBefore(start, 'day') || d.isAfter(start.add(max - 1, 'day'), 'day');
                  }}
                />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item label="期限">
                <Typography.Text data-testid="apply-days">
                  {from && until ? `共 ${until.diff(from, 'day') + 1} 天` : '—'}
                </Typography.Text>
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="reason" label="申请理由" required rules={[zodRule(field.reason)]}>
            <Input.TextArea
              rows={3}
              maxLength={500}
              showCount
              placeholder="请说明查看图纸的用途，如模具开发、来料检验"
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
