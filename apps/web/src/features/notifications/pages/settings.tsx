/**
 * /esm/settings — 个人设置 (from the header's user name): the user's own e-mail address, which
 * kinds of notification are also mailed to them, and how: each at once (即时) or the day's in one
 * mail (每日汇总). The in-app centre lists every kind at once whatever is chosen here; without
 * SMTP_URL the portal sends no mail and says so.
 */
import { useEffect } from 'react';
import { Alert, Button, Card, Checkbox, Descriptions, Form, Input, Radio, Space } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NOTIFICATION_KINDS,
  NOTIFICATION_KIND_LABELS,
  ZSaveNotificationSettingsSchema,
  notificationsApi,
  type NotificationKind,
} from '@esm/contracts';
import { call } from '../../../api/client.ts';
import { useFormSubmit } from '../../../components/useFormSubmit.ts';
import { zodRule } from '../../../components/zodRule.ts';

interface Values {
  email: string;
  mailed: NotificationKind[];
  digest: boolean;
}

export default function SettingsPage() {
  const qc = useQueryClient();
  const settings = useQuery({
    queryKey: [notificationsApi.settings.path],
    queryFn: async () => (await call(notificationsApi.settings)).data,
  });
  const [form] = Form.useForm<Values>();
  const { submit, busy } = useFormSubmit(form, { failText: '保存失败，请稍后重试', rename: { mutedKinds: 'mailed' } });
  const data = settings.data;
  useEffect(() => {
    if (data)
      form.setFieldsValue({
        email: data.email ?? '',
        mailed: data.kinds.filter((k) => !data.mutedKinds.includes(k)),
        digest: data.digest,
      });
  }, [data, form]);
  const save = () =>
    submit(async (v) => {
      // only the kinds offered change; a choice about a kind this type never receives is kept as it was
      const offered = data?.kinds ?? [];
      const mutedKinds = NOTIFICATION_KINDS.filter((k) =>
        offered.includes(k) ? !v.mailed.includes(k) : Boolean(data?.mutedKinds.includes(k)),
      );
      const res = await call(
        notificationsApi.saveSettings,
        { email: v.email, mutedKinds, digest: v.digest },
        { silent: true },
      );
      qc.setQueryData([notificationsApi.settings.path], res.data);
      return res.message;
    });
  return (
    <Card loading={settings.isLoading} data-testid="settings-page">
      {data && (
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label="账号">{data.account}</Descriptions.Item>
          <Descriptions.Item label="姓名">{data.name}</Descriptions.Item>
        </Descriptions>
      )}
      {data && !data.mailOn && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="本门户尚未开通邮件发送，通知只在站内显示；这里的选择在开通后生效。"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 560 }}
        initialValues={{ email: '', mailed: [], digest: false }}
      >
        <Form.Item
          name="email"
          label="邮箱"
          rules={[zodRule(ZSaveNotificationSettingsSchema.shape.email)]}
          extra="通知邮件发往此地址；留空则不发邮件。"
        >
          <Input placeholder="例如 zhangwei@example.com" maxLength={254} autoComplete="email" />
        </Form.Item>
        <Form.Item name="mailed" label="以下通知同时发送邮件">
          <Checkbox.Group
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
            options={(data?.kinds ?? []).map((k) => ({ value: k, label: NOTIFICATION_KIND_LABELS[k] }))}
          />
        </Form.Item>
        <Form.Item
          name="digest"
          label="邮件发送方式"
          extra="每日汇总：当天的通知在每天 18:00 合并为一封邮件发送；站内通知不受影响。"
        >
          <Radio.Group
            options={[
              { value: false, label: '即时发送（每条通知一封邮件）' },
              { value: true, label: '每日汇总（每天一封）' },
            ]}
          />
        </Form.Item>
        <Space>
          <Button type="primary" loading={busy} onClick={() => void save()} data-testid="settings-save">
            保存
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
