/**
 * Attachments of a question, a reply or a follow-up: each chosen file is checked here (type, size:
 * the server checks again), uploaded at once with its progress, and handed on as the uploaded
 * rows; the form sends their ids.
 */
import { useState } from 'react';
import { App, Button, Progress, Typography, Upload } from 'antd';
import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import {
  ATTACHMENT_EXTENSIONS,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES_TEXT,
  ATTACHMENTS_PER_MESSAGE,
  type AttachmentRow,
} from '@esm/contracts';
import { formatFileSize } from '../../components/labels.tsx';
import { serverErrorText } from '../../components/serverErrors.ts';
import { uploadAttachment, type Side } from './api.ts';

const MAX_MB = ATTACHMENT_MAX_BYTES / 1024 / 1024;
const ACCEPT = ATTACHMENT_EXTENSIONS.map((e) => `.${e}`).join(',');

/** Why this file cannot be attached, or null. */
export function attachmentRefusal(file: { name: string; size: number }): string | null {
  const ext = file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase();
  if (!file.name.includes('.') || !(ATTACHMENT_EXTENSIONS as readonly string[]).includes(ext))
    return `「${file.name}」的类型不支持，仅支持 ${ATTACHMENT_TYPES_TEXT}`;
  if (file.size > ATTACHMENT_MAX_BYTES) return `「${file.name}」超过 ${MAX_MB} MB（${formatFileSize(file.size)}）`;
  if (file.size === 0) return `「${file.name}」是空文件`;
  return null;
}

export interface AttachmentPickerProps {
  side: Side;
  value?: AttachmentRow[];
  onChange?: (rows: AttachmentRow[]) => void;
  /** Reports whether an upload is under way (the form waits for it). */
  onBusy?: (busy: boolean) => void;
}

export function AttachmentPicker({ side, value = [], onChange, onBusy }: AttachmentPickerProps) {
  const { message } = App.useApp();
  const [uploading, setUploading] = useState<{ name: string; percent: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const add = async (file: File) => {
    setError(null);
    const refusal =
      value.length >= ATTACHMENTS_PER_MESSAGE ? `最多 ${ATTACHMENTS_PER_MESSAGE} 个附件` : attachmentRefusal(file);
    if (refusal) {
      setError(refusal);
      return;
    }
    setUploading({ name: file.name, percent: 0 });
    onBusy?.(true);
    try {
      const row = await uploadAttachment(side, file, (percent) => setUploading({ name: file.name, percent }));
      onChange?.([...value, row]);
      message.success(`已上传 ${file.name}`);
    } catch (e) {
      setError(serverErrorText(e, '上传失败，请重试'));
    } finally {
      setUploading(null);
      onBusy?.(false);
    }
  };

  return (
    <div data-testid="attachment-picker">
      <Upload
        accept={ACCEPT}
        showUploadList={false}
        multiple={false}
        beforeUpload={(file) => {
          void add(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} disabled={uploading !== null}>
          添加附件
        </Button>
      </Upload>
      <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 8 }}>
        {ATTACHMENT_TYPES_TEXT}，单个不超过 {MAX_MB} MB，最多 {ATTACHMENTS_PER_MESSAGE} 个
      </Typography.Text>
      {uploading && (
        <div data-testid="upload-progress">
          <Typography.Text style={{ fontSize: 12 }}>正在上传 {uploading.name}</Typography.Text>
          <Progress aria-label="上传进度" percent={uploading.percent} size="small" />
        </div>
      )}
      {error && (
        <Typography.Text type="danger" style={{ display: 'block' }} role="alert">
          {error}
        </Typography.Text>
      )}
      {value.map((a) => (
        <div key={a.id} style={{ display: 'flex', alignItems: 'center', gap: 6, marginTop: 4 }}>
          <PaperClipOutlined />
          <span>{a.fileName}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatFileSize(a.fileSize)}
          </Typography.Text>
          <Button size="small" type="link" danger onClick={() => onChange?.(value.filter((x) => x.id !== a.id))}>
            移除
          </Button>
        </div>
      ))}
    </div>
  );
}
