/**
 * 会签: 同意, 有条件同意 (with the condition) or 退回 (with the reason), for the round and step the
 * signer is looking at — if the list moved on meanwhile the server refuses (409) and says why.
 */
import { useState } from 'react';
import { Alert, App, Form, Input, Modal, Radio } from 'antd';
import {
  COUNTERSIGN_DECISIONS,
  COUNTERSIGN_DECISION_LABELS,
  type CountersignDecision,
  type CountersignDetail,
} from '@esm/contracts';
import { ApiError } from '../../api/client.ts';
import { serverErrorText } from '../../components/serverErrors.ts';
import { validValues } from '../../components/zodRule.ts';
import { submitSignature, type Side } from './api.ts';

export function SignDialog({
  side,
  list,
  onClose,
  onDone,
}: {
  side: Side;
  list: CountersignDetail;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<{ decision: CountersignDecision; comment?: string }>();
  const decision = Form.useWatch('decision', form) ?? 'AGREE';
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const v = await validValues(form);
    if (!v) return;
    setBusy(true);
    setError(null);
    try {
      const res = await submitSignature(side, {
        id: list.id,
        round: list.round,
        step: list.step,
        decision: v.decision,
        comment: v.comment?.trim() || undefined,
      });
      message.success(res.message);
      onDone();
    } catch (e) {
      const fieldError = e instanceof ApiError ? e.errors.find((f) => f.field === 'comment') : undefined;
      if (fieldError) form.setFields([{ name: 'comment', errors: [fieldError.message] }]);
      else setError(serverErrorText(e, '提交失败'));
    } finally {
      setBusy(false);
    }
  };
  const needsText = decision !== 'AGREE';
  return (
    <Modal
      open
      title={`会签 ${list.number}（第 ${list.round} 轮）`}
      okText="提交"
      cancelText="取消"
      okButtonProps={{ loading: busy, danger: decision === 'RETURN' }}
      onOk={submit}
      onCancel={onClose}
    >
      {error && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={error} />}
      <Form form={form} name="countersign-sign" layout="vertical" initialValues={{ decision: 'AGREE' }}>
        <Form.Item name="decision" label="会签意见" required>
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={COUNTERSIGN_DECISIONS.map((d) => ({ value: d, label: COUNTERSIGN_DECISION_LABELS[d] }))}
          />
        </Form.Item>
        <Form.Item
          name="comment"
          label={decision === 'RETURN' ? '退回原因' : decision === 'CONDITIONAL' ? '同意的条件' : '备注'}
          required={needsText}
          rules={
            needsText
              ? [
                  {
                    required: true,
                    whitespace: true,
                    message: decision === 'RETURN' ? '请填写退回原因' : '请填写同意的条件',
                  },
                ]
              : []
          }
          extra={decision === 'RETURN' ? '退回后本轮结束，由发起人修改后重新下发' : undefined}
        >
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
