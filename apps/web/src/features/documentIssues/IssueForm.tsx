/**
 * 提问 / 编辑草稿: the drawing (a version the supplier may see now, searched on the server), the
 * problem type, title, description, the material's purchaser and attachments (uploaded with
 * progress). 保存草稿 keeps it as a draft; 提交 saves and submits — the answer says who got it.
 * The rules are the contracts' own (zodRule); the server's field errors land on their fields.
 */
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Select, Space } from 'antd';
import { HANDLING_ROLE_LABELS, ZIssueDraftSchema, type AttachmentRow, type IssueDetail } from '@esm/contracts';
import { serverErrorText, showFieldErrors } from '../../components/serverErrors.ts';
import { validValues, zodRule } from '../../components/zodRule.ts';
import { AttachmentPicker } from './AttachmentPicker.tsx';
import {
  addIssue,
  submitIssue,
  updateIssue,
  useDrawings,
  useProblemTypeOptions,
  usePurchasers,
  type DraftBody,
} from './api.ts';

interface Values {
  fileId?: number;
  problemTypeId?: number;
  title?: string;
  description?: string;
  purchaser?: string;
  attachments?: AttachmentRow[];
}

const field = ZIssueDraftSchema.shape;

export interface IssueFormProps {
  /** The draft being edited, or null for a new question. */
  editing: IssueDetail | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}

export function IssueForm({ editing, open, onClose, onSaved }: IssueFormProps) {
  return open ? <IssueFormModal editing={editing} onClose={onClose} onSaved={onSaved} /> : null;
}

function IssueFormModal({ editing, onClose, onSaved }: Omit<IssueFormProps, 'open'>) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [keyword, setKeyword] = useState('');
  const [busy, setBusy] = useState<'save' | 'submit' | null>(null);
  const [uploading, setUploading] = useState(false);
  const drawings = useDrawings(keyword);
  const types = useProblemTypeOptions();
  const fileId = Form.useWatch('fileId', form);
  const chosen = drawings.data?.find((d) => d.fileId === fileId);
  const materialCode =
    chosen?.materialCode ?? (editing && editing.fileId === fileId ? editing.materialCode : undefined);
  const purchasers = usePurchasers(materialCode);

  const drawingOptions = (drawings.data ?? []).map((d) => ({
    value: d.fileId,
    label: `${d.standardCode} ${d.name} 版本 ${d.version}${d.status === 'HISTORY' ? '（历史版本）' : ''} · ${d.materialCode} ${d.materialName}`,
  }));
  if (editing && !drawingOptions.some((o) => o.value === editing.fileId)) {
    drawingOptions.unshift({
      value: editing.fileId,
      label: `${editing.standardCode} ${editing.fileTitle} 版本 ${editing.version} · ${editing.materialCode} ${editing.materialName}`,
    });
  }

  const save = async (andSubmit: boolean) => {
    const v = await validValues(form);
    if (!v) return;
    const body: DraftBody = {
      fileId: v.fileId!,
      problemTypeId: v.problemTypeId!,
      title: v.title ?? '',
      description: v.description ?? '',
      purchaser: v.purchaser,
      attachmentIds: (v.attachments ?? []).map((a) => a.id),
    };
    setBusy(andSubmit ? 'submit' : 'save');
    try {
      const saved = editing ? await updateIssue(editing.id, body) : await addIssue(body);
      if (andSubmit) {
        const sent = await submitIssue(saved.data.id);
        message.success(sent.message);
      } else message.success('草稿已保存');
      onSaved();
      onClose();
    } catch (e) {
      showFieldErrors(form, e, { attachmentIds: 'attachments' });
      message.error(serverErrorText(e, '保存失败'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      open
      title={editing ? `编辑草稿 ${editing.number}` : '提问'}
      onCancel={onClose}
      width={720}
      maskClosable={false}
      footer={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button onClick={() => save(false)} loading={busy === 'save'} disabled={uploading || busy !== null}>
            保存草稿
          </Button>
          <Button
            type="primary"
            onClick={() => save(true)}
            loading={busy === 'submit'}
            disabled={uploading || busy !== null}
          >
            提交
          </Button>
        </Space>
      }
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          editing
            ? {
                fileId: editing.fileId,
                problemTypeId: editing.problemTypeId,
                title: editing.title,
                description: editing.description,
                purchaser: editing.purchaser ?? undefined,
                attachments: editing.attachments,
              }
            : { attachments: [] }
        }
      >
        <Form.Item name="fileId" label="图纸（物料与版本）" rules={[{ required: true, message: '请选择图纸' }]}>
          <Select
            showSearch
            filterOption={false}
            onSearch={setKeyword}
            options={drawingOptions}
            loading={drawings.isFetching}
            placeholder="输入标准编号、图纸名称或物料搜索"
            aria-label="图纸（物料与版本）"
            notFoundContent={drawings.isFetching ? '搜索中…' : '没有可提问的图纸（仅限贵公司现可查看的图纸）'}
            onChange={() => form.setFieldValue('purchaser', undefined)}
          />
        </Form.Item>
        <Form.Item name="problemTypeId" label="问题类型" rules={[{ required: true, message: '请选择问题类型' }]}>
          <Select
            options={(types.data ?? []).map((t) => ({
              value: t.id,
              label: `${t.name}（${HANDLING_ROLE_LABELS[t.role]}处理，${t.responseDays} 个工作日内答复）`,
            }))}
            loading={types.isLoading}
            placeholder="请选择问题类型"
            showSearch
            optionFilterProp="label"
            aria-label="问题类型"
          />
        </Form.Item>
        <Form.Item name="title" label="问题标题" required rules={[zodRule(field.title)]}>
          <Input maxLength={100} showCount />
        </Form.Item>
        <Form.Item name="description" label="问题描述" required rules={[zodRule(field.description)]}>
          <Input.TextArea rows={4} maxLength={2000} showCount />
        </Form.Item>
        <Form.Item name="purchaser" label="采购员">
          <Select
            allowClear
            placeholder={materialCode ? '请选择采购员' : '请先选择图纸'}
            options={(purchasers.data ?? []).map((p) => ({ value: p.name, label: p.name }))}
            disabled={!materialCode}
            aria-label="采购员"
          />
        </Form.Item>
        <Form.Item name="attachments" label="附件">
          <AttachmentPicker side="supplier" onBusy={setUploading} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
