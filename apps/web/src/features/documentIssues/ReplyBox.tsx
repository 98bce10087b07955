/**
 * A text with attachments sent as one step of the thread: the supplier's follow-up (追问) and
 * the answerer's reply (with, for a reply, the change notice that superseded the version).
 */
import { useState } from 'react';
import { Button, Form, Input, Select } from 'antd';
import type { AttachmentRow, IssueNoticeRef } from '@esm/contracts';
import { useFormSubmit } from '../../components/useFormSubmit.ts';
import { AttachmentPicker } from './AttachmentPicker.tsx';
import type { Side } from './api.ts';

interface Values {
  text?: string;
  attachments?: AttachmentRow[];
  noticeId?: number;
}

export interface ReplyBoxProps {
  side: Side;
  label: string;
  button: string;
  /** Change notices the text may link (replies only). */
  notices?: IssueNoticeRef[];
  onSend: (text: string, attachmentIds: number[], noticeId?: number) => Promise<{ message: string }>;
}

export function ReplyBox({ side, label, button, notices, onSend }: ReplyBoxProps) {
  const [form] = Form.useForm<Values>();
  const { busy, submit } = useFormSubmit(form, { failText: '发送失败', rename: { attachmentIds: 'attachments' } });
  const [uploading, setUploading] = useState(false);
  const send = async () => {
    if (
      await submit(
        async (v) =>
          (
            await onSend(
              v.text!.trim(),
              (v.attachments ?? []).map((a) => a.id),
              v.noticeId,
            )
          ).message,
      )
    )
      form.resetFields();
  };
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ attachments: [] }}
      data-testid="reply-box"
      style={{ marginTop: 8 }}
    >
      <Form.Item
        name="text"
        label={label}
        rules={[
          { required: true, whitespace: true, message: `请填写${label}` },
          { max: 2000, message: `${label}不能超过 2000 个字符` },
        ]}
      >
        <Input.TextArea rows={3} maxLength={2000} showCount />
      </Form.Item>
      {notices && notices.length > 0 && (
        <Form.Item name="noticeId" label="关联变更通知">
          <Select
            allowClear
            options={notices.map((n) => ({ value: n.id, label: `${n.number} ${n.title}（→ ${n.newVersion}）` }))}
            placeholder="可选：替代该版本的变更通知"
            aria-label="关联变更通知"
          />
        </Form.Item>
      )}
      <Form.Item name="attachments" label="附件">
        <AttachmentPicker side={side} onBusy={setUploading} />
      </Form.Item>
      <Button type="primary" onClick={send} loading={busy} disabled={uploading}>
        {button}
      </Button>
    </Form>
  );
}
