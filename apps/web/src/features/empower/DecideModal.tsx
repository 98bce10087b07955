/**
 * 审批: one application in full — who asks, why, for which materials (each with the supplier's
 * grant on it now) and for how long — and the decision: approve all or some materials, for the
 * period asked or a shorter one (the pickers allow nothing outside it), or reject with a reason.
 */
import { useEffect, useState } from 'react';
import {
  App,
  Button,
  Checkbox,
  Col,
  DatePicker,
  Descriptions,
  Form,
  Input,
  Modal,
  Popconfirm,
  Row,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ApplicationRow } from '@esm/contracts';
import { ApiError } from '../../api/client.ts';
import { actorText, formatDateTime } from '../../components/labels.tsx';
import { serverErrorText } from '../../components/serverErrors.ts';
import { validValues } from '../../components/zodRule.ts';
import { decideApplications } from './api.ts';
import { GrantStateTag, Notice, minute } from './labels.tsx';

interface Values {
  materialCodes: string[];
  validFrom: Dayjs;
  validUntil: Dayjs;
  comment?: string;
}

const DAY = 'YYYY-MM-DD';

export function DecideModal({
  app,
  onClose,
  onDecided,
}: {
  app: ApplicationRow | null;
  onClose: () => void;
  onDecided: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<'APPROVE' | 'REJECT' | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const from = Form.useWatch('validFrom', form);
  const until = Form.useWatch('validUntil', form);
  const picked = Form.useWatch('materialCodes', form);

  const decide = async (decision: 'APPROVE' | 'REJECT') => {
    if (!app) return;
    setRefusal(null);
    const v = decision === 'APPROVE' ? await validValues(form) : await validValues(form, ['comment']);
    if (!v) return;
    const comment = v.comment?.trim() || undefined;
    if (decision === 'REJECT' && !comment) {
      form.setFields([{ name: 'comment', errors: ['请填写驳回原因'] }]);
      return;
    }
    const body =
      decision === 'REJECT'
        ? { ids: [app.id], decision, comment }
        : {
            ids: [app.id],
            decision,
            comment,
            // only what the approver changed: all materials and the period asked are the default
            ...(v.materialCodes.length < app.materials.length ? { materialCodes: v.materialCodes } : {}),
            ...(v.validFrom.format(DAY) !== app.validFrom ? { validFrom: v.validFrom.format(DAY) } : {}),
            ...(v.validUntil.format(DAY) !== app.validUntil ? { validUntil: v.validUntil.format(DAY) } : {}),
          };
    setBusy(decision);
    try {
      const res = await decideApplications(body);
      message.success(res.message);
      onDecided();
      onClose();
    } catch (e) {
      const fields =
        e instanceof ApiError
          ? e.errors.filter((f) =>
              ['materialCodes', 'validFrom', 'validUntil', 'comment'].includes(f.field.split('.')[0]!),
            )
          : [];
      if (fields.length)
        form.setFields(fields.map((f) => ({ name: f.field.split('.')[0] as keyof Values, errors: [f.message] })));
      else setRefusal(serverErrorText(e, '审批失败'));
      if (e instanceof ApiError && e.status === 409) onDecided(); // someone else decided: the list is stale
    } finally {
      setBusy(null);
    }
  };

  // each application opened starts from what it asked (a quick reopen reuses the closing form)
  useEffect(() => {
    if (!app) return;
    setRefusal(null);
    form.resetFields();
    form.setFieldsValue({
      materialCodes: app.materials.map((m) => m.code),
      validFrom: dayjs(app.validFrom),
      validUntil: dayjs(app.validUntil),
      comment: undefined,
    });
  }, [app, form]);

  const askedFrom = app ? dayjs(app.validFrom) : dayjs();
  const askedUntil = app ? dayjs(app.validUntil) : dayjs();
  const outside = (d: Dayjs) => d.isBefore(askedFrom, 'day') || d.isAfter(askedUntil, 'day');
  const shortened =
    app && from && until && (from.format(DAY) !== app.validFrom || until.format(DAY) !== app.validUntil);

  return (
    <Modal
      open={app !== null}
      title={app ? `审批申请 ${app.id}` : ''}
      width={760}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      afterClose={() => setRefusal(null)}
      footer={[
        <Button key="cancel" onClick={onClose} disabled={busy !== null}>
          取消
        </Button>,
        <Popconfirm
          key="reject"
          title="驳回申请"
          description="驳回后不能撤销，供应商须重新申请。确认驳回？"
          okText="驳回"
          okButtonProps={{ danger: true }}
          cancelText="取消"
          onConfirm={() => decide('REJECT')}
        >
          <Button danger loading={busy === 'REJECT'} disabled={busy === 'APPROVE'}>
            驳回
          </Button>
        </Popconfirm>,
        <Button
          key="approve"
          type="primary"
          onClick={() => decide('APPROVE')}
          loading={busy === 'APPROVE'}
          disabled={busy === 'REJECT'}
        >
          批准
          {picked && app && picked.length < app.materials.length
            ? `（${picked.length}/${app.materials.length} 个物料）`
            : ''}
        </Button>,
      ]}
    >
      {refusal && (
        <Notice kind="error" testId="decide-refusal">
          {refusal}
        </Notice>
      )}
      {app && (
        <>
          <Descriptions
            size="small"
            column={2}
            style={{ marginBottom: 12 }}
            items={[
              { key: 's', label: '供应商', children: `${app.supplierCode} ${app.supplierName}`, span: 2 },
              { key: 'a', label: '申请人', children: actorText(app.applicantName, app.applicantAccount) },
              { key: 't', label: '提交时间', children: formatDateTime(app.submittedAt) },
              {
                key: 'p',
                label: '申请期限',
                children: `${app.validFrom} 至 ${app.validUntil}（${askedUntil.diff(askedFrom, 'day') + 1} 天）`,
                span: 2,
              },
              { key: 'r', label: '申请理由', children: app.reason, span: 2 },
            ]}
          />
          <Form<Values>
            form={form}
            name="empower-decide"
            layout="vertical"
            preserve={false}
            initialValues={{
              materialCodes: app.materials.map((m) => m.code),
              validFrom: askedFrom,
              validUntil: askedUntil,
            }}
          >
            <Form.Item
              name="materialCodes"
              label="批准的物料（可只批准部分）"
              rules={[{ type: 'array', min: 1, message: '至少批准一个物料；全部不批准请驳回' }]}
            >
              <Checkbox.Group style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
                {app.materials.map((m) => (
                  <Checkbox key={m.code} value={m.code} aria-label={`批准物料 ${m.code}`}>
                    {m.code} {m.name} <GrantStateTag state={m.grantState} />
                    {m.grantValidUntil && (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {m.grantState === 'NOT_YET'
                          ? '已有授权，尚未生效'
                          : m.grantState === 'VALID'
                            ? `现有授权至 ${minute(m.grantValidUntil)}`
                            : `已于 ${minute(m.grantValidUntil)} 过期`}
                      </Typography.Text>
                    )}
                  </Checkbox>
                ))}
              </Checkbox.Group>
            </Form.Item>
            <Row gutter={16}>
              <Col xs={24} sm={12}>
                <Form.Item
                  name="validFrom"
                  label="批准开始日期"
                  rules={[{ required: true, message: '请选择开始日期' }]}
                >
                  <DatePicker style={{ width: '100%' }} disabledDate={outside} allowClear={false} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item
                  name="validUntil"
                  label="批准截止日期（含当天）"
                  rules={[{ required: true, message: '请选择截止日期' }]}
                  extra={shortened ? '期限已缩短' : '可缩短，不可延长'}
                >
                  <DatePicker
                    style={{ width: '100%' }}
                    disabledDate={(d) => outside(d) || (from ? d.isBefore(from, 'day') : false)}
                    allowClear={false}
                  />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item
              name="comment"
              label="审批意见（驳回时必填）"
              rules={[{ max: 500, message: '审批意见不能超过 500 个字符' }]}
            >
              <Input.TextArea
                rows={3}
                maxLength={500}
                showCount
                placeholder="批准时选填；驳回时请写明原因，供应商将看到"
              />
            </Form.Item>
          </Form>
        </>
      )}
    </Modal>
  );
}
