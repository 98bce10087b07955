/** 作废: a confirm dialog (spec §9: width 416) that asks for the reason before obsoleting a version. */
import { useState } from 'react';
import { App, Form, Input, Modal, Typography } from 'antd';
import { ExclamationCircleFilled } from '@ant-design/icons';
import { UI, ZObsoleteRequestSchema, type StandardFileRow } from '@esm/contracts';
import { obsoleteStandardFile } from '../../../api/archives.ts';
import { ApiError } from '../../../api/client.ts';
import { zodRule } from '../../../components/zodRule.ts';
import { serverErrorText } from './serverErrors.ts';

export function ObsoleteDialog({ file, onClose, onDone }: { file: StandardFileRow | null; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();

  const submit = async () => {
    if (!file) return;
    const { reason } = await form.validateFields();
    setBusy(true);
    try {
      await obsoleteStandardFile(file.id, reason.trim());
      message.success(`已作废 ${file.standardCode} ${file.version}`);
      onDone();
    } catch (e) {
      const fieldError = e instanceof ApiError ? e.errors.find((f) => f.field === 'reason') : undefined;
      if (fieldError) form.setFields([{ name: 'reason', errors: [fieldError.message] }]);
      else message.error(serverErrorText(e, '作废失败'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={Boolean(file)}
      width={UI.confirmWidth}
      title={
        <span>
          <ExclamationCircleFilled style={{ color: '#faad14', marginRight: 8 }} />
          确认作废该版本？
        </span>
      }
      okText="确认作废"
      okButtonProps={{ danger: true, loading: busy }}
      onOk={submit}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      destroyOnHidden
    >
      {file && (
        <Typography.Paragraph>
          {file.standardCode} {file.name} {file.version}（第{file.versionNo}版）作废后供应商将不能再查看、下载或打印，且不能恢复。
        </Typography.Paragraph>
      )}
      <Form form={form} name="obsolete" layout="vertical" preserve={false}>
        <Form.Item name="reason" label="作废原因" required rules={[zodRule(ZObsoleteRequestSchema.shape.reason)]}>
          <Input.TextArea rows={3} maxLength={200} showCount placeholder="请填写作废原因" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
