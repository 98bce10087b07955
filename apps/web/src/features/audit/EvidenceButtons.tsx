/**
 * 证据包 (evidence package) buttons: a supplier's rows on a material or drawing (the access
 * report's grants, the supplier census), or a change notice's (its recipients matrix). Each shows
 * its spinner while the server gathers and hashes the rows, then saves the ZIP and says so; a
 * refusal comes back in the server's words. Types 3/7/8/9 only (the call's access).
 */
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { auditApi } from '@esm/contracts';
import { ApiError } from '../../api/client.ts';
import { ExcelButton } from '../../components/ExcelButton.tsx';
import { Permitted } from '../../components/Permitted.tsx';
import { serverErrorText } from '../../components/serverErrors.ts';
import { exportNoticeEvidence, exportSubjectEvidence } from './api.ts';

const DONE = '已生成证据包';

/** The package of one supplier and the subject shown (a grant row of the access report). */
export function SubjectEvidenceButton({
  supplierCode,
  materialCode,
  standardCode,
}: {
  supplierCode: string;
  materialCode?: string;
  standardCode?: string;
}) {
  return (
    <Permitted endpoint={auditApi.subjectEvidence}>
      <ExcelButton
        size="small"
        label="证据包"
        done={DONE}
        testId={`evidence-${supplierCode}`}
        run={() => exportSubjectEvidence({ supplierCode, materialCode, standardCode })}
      />
    </Permitted>
  );
}

/** The package of a change notice. */
export function NoticeEvidenceButton({ id, disabled }: { id: number; disabled?: boolean }) {
  return (
    <Permitted endpoint={auditApi.noticeEvidence}>
      <ExcelButton
        label="证据包"
        done={DONE}
        disabled={disabled}
        testId="notice-evidence"
        run={() => exportNoticeEvidence(id)}
      />
    </Permitted>
  );
}

interface Values {
  materialCode?: string;
  standardCode?: string;
}

/** The census: a supplier's row asks which material or drawing the package is about. */
export function EvidenceDialogButton({ supplierCode, supplierName }: { supplierCode: string; supplierName: string }) {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<Values>();
  const submit = async (v: Values) => {
    const materialCode = v.materialCode?.trim() || undefined;
    const standardCode = v.standardCode?.trim() || undefined;
    if (!materialCode && !standardCode) {
      form.setFields([{ name: 'materialCode', errors: ['请输入物料编码或标准编号'] }]);
      return;
    }
    setBusy(true);
    try {
      message.success(`${DONE}：${await exportSubjectEvidence({ supplierCode, materialCode, standardCode })}`);
      setOpen(false);
    } catch (e) {
      const fields = e instanceof ApiError ? e.errors : [];
      if (fields.length)
        form.setFields(
          fields
            .filter((f) => f.field === 'materialCode' || f.field === 'standardCode')
            .map((f) => ({ name: f.field as keyof Values, errors: [f.message] })),
        );
      message.error(serverErrorText(e, '生成证据包失败'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Permitted endpoint={auditApi.subjectEvidence}>
      <Button
        type="link"
        size="small"
        icon={<SafetyCertificateOutlined />}
        onClick={() => setOpen(true)}
        data-testid={`evidence-${supplierCode}`}
      >
        证据包
      </Button>
      <Modal
        title={`证据包：${supplierCode} ${supplierName}`}
        open={open}
        okText="生成并下载"
        cancelText="取消"
        confirmLoading={busy}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          该供应商对一个物料或一张图纸的全部记录：保密协议、授权及其申请与审批、可查看的文件版本（SHA-256）、查看/打印/下载（含复制码）、变更通知的阅读与确认、会签与问题，以及它们的审计链哈希。
        </Typography.Paragraph>
        <Form<Values> form={form} layout="vertical" name="evidence" onFinish={submit} preserve={false}>
          <Form.Item name="materialCode" label="物料编码">
            <Input allowClear maxLength={40} placeholder="如 0064000101" />
          </Form.Item>
          <Form.Item name="standardCode" label="或 标准编号（图纸，含全部版本）">
            <Input allowClear maxLength={64} />
          </Form.Item>
        </Form>
      </Modal>
    </Permitted>
  );
}
