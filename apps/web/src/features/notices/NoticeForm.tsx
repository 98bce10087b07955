/**
 * 新建 / 编辑变更通知 (a draft): title, product line, due date (default 7 days ahead), reason,
 * description and the changed drawings — each an effective version, shown with the version it
 * replaces. The form checks with the server's own schema; the server's field errors land on
 * their fields (a change's error on the change list), anything else above the form.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Col,
  DatePicker,
  Empty,
  Form,
  Input,
  Modal,
  Row,
  Select,
  Spin,
  Table,
  Typography,
} from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { z } from 'zod';
import {
  NOTICE_CHANGES_MAX,
  NOTICE_DUE_DAYS_DEFAULT,
  ZNoticeDraftSchema,
  type ChangeCandidate,
  type NoticeDetail,
} from '@esm/contracts';
import { ApiError } from '../../api/client.ts';
import { validValues, zodRule } from '../../components/zodRule.ts';
import { serverErrorText } from '../../components/serverErrors.ts';
import { candidatesQuery, createNotice, updateNotice, useProductLines, type DraftBody } from './api.ts';

interface FormValues {
  title?: string;
  productLineCode?: string;
  dueDate?: Dayjs;
  reason?: string;
  description?: string;
  newFileIds?: number[];
}

const field = ZNoticeDraftSchema.shape;
const dateRule = zodRule(z.preprocess((v) => (dayjs.isDayjs(v) ? v.format('YYYY-MM-DD') : v), field.dueDate));

/** A change of a saved draft, in the shape of a candidate (for the picker's list). */
const asCandidate = (n: NoticeDetail, c: NoticeDetail['changes'][number]): ChangeCandidate => ({
  fileId: c.newFile.id,
  standardCode: c.standardCode,
  name: c.name,
  version: c.newFile.version,
  versionNo: c.newFile.versionNo,
  materialCode: c.materialCode,
  materialName: c.materialName,
  productLineCode: n.productLineCode,
  productLineName: n.productLineName,
  oldFileId: c.oldFile?.id ?? null,
  oldVersion: c.oldFile?.version ?? null,
  effectiveDate: c.newFile.effectiveDate,
  createdAt: '',
});

/** The changed drawings: a search among effective versions, and the picked ones as old → new. */
function ChangePicker({
  id,
  value = [],
  onChange,
  known,
  onPick,
}: {
  id?: string;
  value?: number[];
  onChange?: (v: number[]) => void;
  known: Map<number, ChangeCandidate>;
  onPick: (row: ChangeCandidate) => void;
}) {
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(t);
  }, [typed]);
  const search = useQuery({ ...candidatesQuery({ keyword: keyword || undefined }), placeholderData: (prev) => prev });
  const options = (search.data ?? [])
    .filter((c) => !value.includes(c.fileId))
    .map((c) => ({
      value: c.fileId,
      label: `${c.standardCode} ${c.name}  ${c.oldVersion ?? '（新增）'} → ${c.version}`,
      row: c,
    }));
  const rows = value.map((v) => known.get(v) ?? ({ fileId: v } as ChangeCandidate));
  return (
    <div>
      <Select
        id={id}
        showSearch
        value={null}
        placeholder="输入标准编号或名称，选择变更后的生效版本"
        filterOption={false}
        onSearch={setTyped}
        onChange={(v: number | null) => {
          const picked = options.find((o) => o.value === v);
          if (!picked) return;
          onPick(picked.row);
          setTyped('');
          onChange?.([...value, picked.value]);
        }}
        notFoundContent={search.isFetching ? <Spin size="small" /> : '没有匹配的生效版本'}
        options={options}
        disabled={value.length >= NOTICE_CHANGES_MAX}
        style={{ width: '100%' }}
        aria-label="添加变更的图纸"
        data-testid="change-picker"
      />
      <Table<ChangeCandidate>
        size="small"
        rowKey="fileId"
        style={{ marginTop: 8 }}
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未添加变更的图纸" /> }}
        columns={[
          {
            title: '标准编号',
            dataIndex: 'standardCode',
            width: 150,
            render: (v: string | undefined) => v ?? <Spin size="small" />,
          },
          { title: '名称', dataIndex: 'name', ellipsis: true },
          {
            title: '版本变更',
            key: 'versions',
            width: 120,
            render: (_: unknown, r) => (r.version ? `${r.oldVersion ?? '（新增）'} → ${r.version}` : ''),
          },
          { title: '物料', dataIndex: 'materialCode', width: 120, ellipsis: true },
          {
            title: '',
            key: 'remove',
            width: 48,
            render: (_: unknown, r) => (
              <Button
                type="text"
                danger
                size="small"
                icon={<DeleteOutlined />}
                aria-label={`移除 ${r.standardCode ?? r.fileId}`}
                onClick={() => onChange?.(value.filter((v) => v !== r.fileId))}
              />
            ),
          },
        ]}
      />
    </div>
  );
}

export interface NoticeFormProps {
  /** Editing this draft; absent: a new draft. */
  notice?: NoticeDetail;
  /** A new draft about these versions (e.g. the version just uploaded). */
  preset?: { newFileIds: number[] };
  onClose: () => void;
  onSaved: (notice: NoticeDetail) => void;
}

/** Mount it to open it (unmounting resets it). */
export function NoticeForm({ notice, preset, onClose, onSaved }: NoticeFormProps) {
  const [form] = Form.useForm<FormValues>();
  const { message } = App.useApp();
  const lines = useProductLines();
  const [picked, setPicked] = useState<ChangeCandidate[]>([]);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  // the versions this form opened with: the draft's own changes, or the preset's rows from the server
  const presetIds = preset?.newFileIds ?? [];
  const presetRows = useQuery({ ...candidatesQuery({ ids: presetIds }), enabled: presetIds.length > 0 });
  const known = useMemo(
    () =>
      new Map(
        [...(notice?.changes.map((c) => asCandidate(notice, c)) ?? []), ...(presetRows.data ?? []), ...picked].map(
          (r) => [r.fileId, r] as const,
        ),
      ),
    [notice, presetRows.data, picked],
  );

  /** The first change proposes the product line and, for a new notice, a title. */
  const propose = (first: ChangeCandidate | undefined) => {
    if (!first) return;
    if (!form.getFieldValue('productLineCode')) form.setFieldValue('productLineCode', first.productLineCode);
    if (!notice && !form.getFieldValue('title'))
      form.setFieldValue('title', `${first.name}（${first.standardCode}）变更为 ${first.version} 版`);
  };
  useEffect(() => propose(presetRows.data?.[0]), [presetRows.data]); // eslint-disable-line react-hooks/exhaustive-deps

  const initial: FormValues = notice
    ? {
        title: notice.title,
        productLineCode: notice.productLineCode,
        dueDate: dayjs(notice.dueDate),
        reason: notice.reason,
        description: notice.description ?? undefined,
        newFileIds: notice.changes.map((c) => c.newFile.id),
      }
    : { dueDate: dayjs().add(NOTICE_DUE_DAYS_DEFAULT, 'day'), newFileIds: preset?.newFileIds ?? [] };

  const submit = async () => {
    setRefusal(null);
    const v = await validValues(form);
    if (!v) return;
    const body: DraftBody = {
      title: v.title!.trim(),
      productLineCode: v.productLineCode!,
      dueDate: v.dueDate!.format('YYYY-MM-DD'),
      reason: v.reason!.trim(),
      description: v.description?.trim() || undefined,
      newFileIds: v.newFileIds ?? [],
    };
    setSaving(true);
    try {
      const res = notice ? await updateNotice(notice.id, body) : await createNotice(body);
      message.success(notice ? '草稿已保存' : `已保存草稿 ${res.data.number}`);
      onSaved(res.data);
    } catch (e) {
      const errors = e instanceof ApiError ? e.errors : [];
      const formFields = new Set(['title', 'productLineCode', 'dueDate', 'reason', 'description', 'newFileIds']);
      const onFields = errors.filter((f) => formFields.has(f.field.split('.')[0]!));
      if (onFields.length) {
        const byField = new Map<string, string[]>();
        for (const f of onFields)
          byField.set(f.field.split('.')[0]!, [...(byField.get(f.field.split('.')[0]!) ?? []), f.message]);
        form.setFields([...byField].map(([name, msgs]) => ({ name: name as keyof FormValues, errors: msgs })));
      } else setRefusal(serverErrorText(e, '保存失败'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={notice ? `编辑变更通知 ${notice.number}` : '新建变更通知'}
      width={820}
      okText="保存草稿"
      cancelText="取消"
      onOk={submit}
      okButtonProps={{ loading: saving }}
      onCancel={onClose}
      mask={{ closable: false }}
    >
      {refusal && (
        <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} data-testid="notice-form-refusal" />
      )}
      <Typography.Paragraph type="secondary">
        保存为草稿后可预览接收的供应商，再发布。发布时，供应受影响物料且持有有效授权的供应商将收到通知。
      </Typography.Paragraph>
      <Form<FormValues> form={form} name="notice" layout="vertical" initialValues={initial} disabled={saving}>
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item
              name="newFileIds"
              label="变更的图纸（旧版本 → 新版本）"
              required
              rules={[zodRule(field.newFileIds)]}
            >
              <ChangePicker
                known={known}
                onPick={(row) => {
                  setPicked((p) => [...p, row]);
                  propose(row);
                }}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={16}>
            <Form.Item name="title" label="标题" required rules={[zodRule(field.title)]}>
              <Input maxLength={100} placeholder="如：贯流风叶动平衡等级提高" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="dueDate"
              label="确认截止日期"
              required
              rules={[dateRule]}
              extra={`默认为 ${NOTICE_DUE_DAYS_DEFAULT} 天后`}
            >
              <DatePicker
                style={{ width: '100%' }}
                disabledDate={(d) => d.isBefore(dayjs(), 'day')}
                placeholder="请选择确认截止日期"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="productLineCode" label="产品线" required rules={[zodRule(field.productLineCode)]}>
              <Select
                placeholder="请选择产品线"
                loading={lines.isPending}
                options={(lines.data ?? []).map((l) => ({ value: l.code, label: l.name }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={16}>
            <Form.Item name="reason" label="变更原因" required rules={[zodRule(field.reason)]}>
              <Input maxLength={500} placeholder="为什么变更" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="description" label="说明" rules={[zodRule(field.description)]}>
              <Input.TextArea rows={2} maxLength={2000} placeholder="选填：执行要求、切换安排等" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
