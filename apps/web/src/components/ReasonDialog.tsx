/**
 * A decision that cannot be undone and needs a reason (作废, 撤销授权, 撤回, 退回, 驳回 …): the
 * legacy portal's confirm dialog (width 416, warning icon) that says what follows, asks the reason
 * (checked by the call's own schema as the user types), and after the call either says what
 * happened in a toast or puts the server's words where the user is looking — a field error under
 * the reason, anything else in a toast. On success it calls `onDone` (refresh and close); on any
 * other refusal it calls `onFailed` when given (the list may be stale: moved meanwhile).
 */
import { useState, type ReactNode } from 'react';
import { App, Form, Input, Modal, Typography } from 'antd';
import { ExclamationCircleFilled } from '@ant-design/icons';
import type { z } from 'zod';
import { UI } from '@esm/contracts';
import { ApiError } from '../api/client.ts';
import { serverErrorText } from './serverErrors.ts';
import { validValues, zodRule } from './zodRule.ts';

export interface ReasonDialogProps<V extends { reason: string }> {
  open: boolean;
  /** The form's name (its fields' ids start with it). */
  name: string;
  /** The question, e.g. 确认撤销该授权？ */
  title: string;
  okText: string;
  /** e.g. 撤销原因 */
  reasonLabel: string;
  placeholder: string;
  /** The call's schema for the reason (same words as the server's 400). */
  reasonRule: z.ZodType;
  maxLength?: number;
  /** What follows from the decision, above the form. */
  description: ReactNode;
  /** More fields before the reason (Form.Items), with their initial values. */
  fields?: ReactNode;
  initialValues?: Partial<V>;
  /** Performs it with the trimmed reason; resolves to the success toast's text. */
  onSubmit: (values: V) => Promise<string>;
  /** The toast's text when the server gives none. */
  failText: string;
  onClose: () => void;
  onDone: () => void;
  onFailed?: () => void;
}

export function ReasonDialog<V extends { reason: string }>(props: ReasonDialogProps<V>) {
  const {
    open,
    name,
    title,
    okText,
    reasonLabel,
    placeholder,
    reasonRule,
    maxLength = 200,
    description,
    fields,
    initialValues,
    onSubmit,
    failText,
    onClose,
    onDone,
    onFailed,
  } = props;
  const [form] = Form.useForm<V>();
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    setBusy(true);
    try {
      message.success(await onSubmit({ ...values, reason: values.reason.trim() }));
      onDone();
    } catch (e) {
      const fieldError = e instanceof ApiError ? e.errors.find((f) => f.field === 'reason') : undefined;
      if (fieldError) form.setFields([{ name: 'reason', errors: [fieldError.message] } as never]);
      else {
        message.error(serverErrorText(e, failText));
        onFailed?.();
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      width={UI.confirmWidth}
      title={
        <span>
          <ExclamationCircleFilled style={{ color: '#faad14', marginRight: 8 }} />
          {title}
        </span>
      }
      okText={okText}
      cancelText="取消"
      okButtonProps={{ danger: true, loading: busy }}
      onOk={submit}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      destroyOnHidden
    >
      {open && <Typography.Paragraph>{description}</Typography.Paragraph>}
      <Form form={form} name={name} layout="vertical" preserve={false} initialValues={initialValues}>
        {fields}
        <Form.Item name="reason" label={reasonLabel} required rules={[zodRule(reasonRule)]}>
          <Input.TextArea rows={3} maxLength={maxLength} showCount placeholder={placeholder} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
