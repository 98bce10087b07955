/**
 * 上传文件: a new standard file, or a new version when the standard code already exists (the
 * current version then becomes history). The form checks with the server's own schema; the
 * server's field errors land on their fields, other refusals (413 with the limit) above the form.
 */
import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Col,
  DatePicker,
  Form,
  Input,
  Modal,
  Progress,
  Row,
  Select,
  Typography,
  Upload,
} from 'antd';
import type { UploadFile } from 'antd/es/upload/interface';
import { UploadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { z } from 'zod';
import {
  FILE_CATEGORIES,
  FILE_CATEGORY_LABELS,
  FILE_STATUS_LABELS,
  SECRET_LEVELS,
  SECRET_LEVEL_LABELS,
  UPLOAD_EXTENSIONS,
  UPLOAD_MAX_BYTES,
  ZUploadFieldsSchema,
  type FileCategory,
  type SecretLevel,
  type UploadFields,
} from '@esm/contracts';
import { useNavigate } from 'react-router';
import { newNoticeHref } from '../notices/index.ts';
import { uploadStandardFile, useLatestVersion } from './api.ts';
import { ApiError } from '../../api/client.ts';
import { formatFileSize } from '../../components/labels.tsx';
import { validValues, zodRule } from '../../components/zodRule.ts';
import { MaterialSelect } from './MaterialSelect.tsx';
import { serverErrorText } from '../../components/serverErrors.ts';

interface FormValues {
  materialCode?: string;
  standardCode?: string;
  name?: string;
  version?: string;
  category?: FileCategory;
  secretLevel?: SecretLevel;
  effectiveDate?: Dayjs;
  remark?: string;
  file?: UploadFile[];
}

const field = ZUploadFieldsSchema.shape;
const MAX_MB = UPLOAD_MAX_BYTES / 1024 / 1024;

/** The chosen file: one of UPLOAD_EXTENSIONS, at most UPLOAD_MAX_BYTES (the server checks again). */
const fileRule = {
  validator: async (_: unknown, list?: UploadFile[]) => {
    const f = list?.[0];
    if (!f) throw new Error('请选择文件');
    const ext = f.name.slice(f.name.lastIndexOf('.')).toLowerCase();
    if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(ext))
      throw new Error(`只能上传 ${UPLOAD_EXTENSIONS.join('、')} 文件`);
    if ((f.size ?? 0) > UPLOAD_MAX_BYTES)
      throw new Error(`文件不能超过 ${MAX_MB} MB（所选文件 ${formatFileSize(f.size ?? 0)}）`);
    if (!f.size) throw new Error('文件是空的');
  },
};
/** The picker holds a Dayjs; the server's rule is about the YYYY-MM-DD it will receive. */
const dateRule = zodRule(z.preprocess((v) => (dayjs.isDayjs(v) ? v.format('YYYY-MM-DD') : v), field.effectiveDate));

/** The code typed so far, once the user pauses (no query per keystroke). */
function useSettled(value: string, ms = 400) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

export interface UploadModalProps {
  open: boolean;
  /** The material selected in the tree, proposed for a new file. */
  materialCode?: string;
  onClose: () => void;
  onUploaded: () => void;
}

export function UploadModal({ open, materialCode, onClose, onUploaded }: UploadModalProps) {
  const [form] = Form.useForm<FormValues>();
  const { message, notification } = App.useApp();
  const navigate = useNavigate();
  const [percent, setPercent] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  const typedCode = (Form.useWatch('standardCode', form) ?? '').trim();
  const code = useSettled(typedCode);
  const latest = useLatestVersion(field.standardCode.safeParse(code).success ? code : '');
  const existing = code === typedCode ? latest.data : undefined;

  // A new version of an existing code: propose what the latest version says for every field the
  // user has not set yet (the category and level defaults count as not set).
  useEffect(() => {
    if (!existing) return;
    const proposal = {
      name: existing.name,
      materialCode: existing.materialCode,
      category: existing.category,
      secretLevel: existing.secretLevel,
    };
    const untouched = (Object.keys(proposal) as (keyof typeof proposal)[]).filter(
      (k) => !form.isFieldTouched(k) || !form.getFieldValue(k),
    );
    form.setFieldsValue(Object.fromEntries(untouched.map((k) => [k, proposal[k]])));
  }, [existing, form]);

  const submit = async () => {
    setRefusal(null);
    const v = await validValues(form);
    if (!v) return;
    const fields: UploadFields = {
      materialCode: v.materialCode!,
      standardCode: v.standardCode!.trim(),
      name: v.name!.trim(),
      version: v.version!.trim(),
      category: v.category!,
      secretLevel: v.secretLevel!,
      effectiveDate: v.effectiveDate!.format('YYYY-MM-DD'),
      remark: v.remark?.trim() || undefined,
    };
    const file = v.file![0]!.originFileObj as File;
    abort.current = new AbortController();
    setPercent(0);
    try {
      const { data: row } = await uploadStandardFile(fields, file, {
        signal: abort.current.signal,
        onProgress: (sent, total) => setPercent(Math.floor((sent / total) * 100)),
      });
      message.success('上传成功');
      // a new version: offer to tell its suppliers, the notice form prefilled with it
      if (row.versionNo > 1) {
        const key = `notice-${row.id}`;
        notification.info({
          key,
          duration: 20,
          // bottom right: clear of the filter bar and toolbar the user goes on with
          placement: 'bottomRight',
          message: `已上传 ${row.standardCode} 的新版本 ${row.version}`,
          description: '是否向相关供应商发布图纸变更通知？',
          actions: (
            <Button
              type="primary"
              size="small"
              onClick={() => {
                notification.destroy(key);
                navigate(newNoticeHref(row.id));
              }}
            >
              发布变更通知
            </Button>
          ),
        });
      }
      onUploaded();
    } catch (e) {
      if (abort.current?.signal.aborted) return;
      const known = new Set(Object.keys(form.getFieldsValue(true)).concat('file'));
      const fieldErrors = e instanceof ApiError ? e.errors.filter((f) => known.has(f.field)) : [];
      if (fieldErrors.length)
        form.setFields(fieldErrors.map((f) => ({ name: f.field as keyof FormValues, errors: [f.message] })));
      else setRefusal(serverErrorText(e, '上传失败'));
    } finally {
      setPercent(null);
      abort.current = null;
    }
  };

  const uploading = percent !== null;
  return (
    <Modal
      open={open}
      title="上传文件"
      width={720}
      okText="上传"
      onOk={submit}
      okButtonProps={{ loading: uploading }}
      onCancel={() => {
        abort.current?.abort();
        onClose();
      }}
      cancelText={uploading ? '取消上传' : '取消'}
      afterClose={() => {
        form.resetFields();
        setRefusal(null);
      }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      {refusal && (
        <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} data-testid="upload-refusal" />
      )}
      <Form<FormValues>
        form={form}
        name="upload"
        layout="vertical"
        disabled={uploading}
        initialValues={{ materialCode, category: 'DRAWING', secretLevel: 'INTERNAL', effectiveDate: dayjs() }}
        preserve={false}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="standardCode"
              label="标准编号"
              required
              rules={[zodRule(field.standardCode)]}
              extra={
                existing ? (
                  <Typography.Text type="warning" data-testid="new-version-hint">
                    已有此编号的版本 {existing.version}（第{existing.versionNo}版，{FILE_STATUS_LABELS[existing.status]}
                    ），上传后作为第{existing.versionNo + 1}版
                    {existing.status === 'EFFECTIVE' ? '，原版本转为历史版本' : ''}
                  </Typography.Text>
                ) : code && latest.isSuccess && latest.data === null ? (
                  <Typography.Text type="secondary">新的标准编号，将作为第1版上传</Typography.Text>
                ) : undefined
              }
            >
              <Input placeholder="如 Q/HR-001；输入已有编号即上传新版本" maxLength={64} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="version" label="版本" required rules={[zodRule(field.version)]}>
              <Input placeholder="如 A、V2.0" maxLength={32} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="name" label="名称" required rules={[zodRule(field.name)]}>
              <Input placeholder="文件名称" maxLength={200} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="materialCode" label="物料" required rules={[zodRule(field.materialCode)]}>
              <MaterialSelect />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="category" label="类别" required rules={[zodRule(field.category)]}>
              <Select
                options={FILE_CATEGORIES.map((c) => ({ value: c, label: FILE_CATEGORY_LABELS[c] }))}
                placeholder="请选择类别"
              />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="secretLevel" label="保密等级" required rules={[zodRule(field.secretLevel)]}>
              <Select
                options={SECRET_LEVELS.map((l) => ({ value: l, label: SECRET_LEVEL_LABELS[l] }))}
                placeholder="请选择保密等级"
              />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="effectiveDate" label="生效日期" required rules={[dateRule]}>
              <DatePicker style={{ width: '100%' }} placeholder="请选择生效日期" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="remark" label="备注" rules={[zodRule(field.remark)]}>
              <Input.TextArea rows={3} maxLength={500} placeholder="选填" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="file"
              label="文件"
              required
              valuePropName="fileList"
              getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList.slice(-1)}
              rules={[fileRule]}
              extra={`支持 PDF、PNG、JPG、DWG、DXF，不超过 ${MAX_MB} MB；DWG/DXF 按原样保存，只能下载`}
            >
              <Upload accept={UPLOAD_EXTENSIONS.join(',')} beforeUpload={() => false} maxCount={1}>
                <Button icon={<UploadOutlined />}>选择文件</Button>
              </Upload>
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {uploading && <Progress aria-label="上传进度" percent={percent} status="active" data-testid="upload-progress" />}
    </Modal>
  );
}
