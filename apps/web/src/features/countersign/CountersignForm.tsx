/**
 * 新建 / 编辑会签单: title, supplier, an optional published change notice, due date (default 7 days
 * ahead), the items to agree on, the file versions concerned (from the archive, each with its
 * sha256) and the internal countersigners in the order they sign. The form checks with the
 * server's own schema; the server's field errors land on their fields, anything else above.
 */
import { useEffect, useState } from 'react';
import { Alert, App, Col, DatePicker, Form, Input, Modal, Row, Select, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { z } from 'zod';
import {
  COUNTERSIGN_DUE_DAYS_DEFAULT,
  ZCountersignDraftSchema,
  type CountersignDetail,
  type CountersignFile,
} from '@esm/contracts';
import { ApiError } from '../../api/client.ts';
import { RemoteSelect, useSearchKeyword } from '../../components/RemoteSelect.tsx';
import { validValues, zodRule } from '../../components/zodRule.ts';
import { serverErrorText } from '../../components/serverErrors.ts';
import { supplierSource } from '../../components/supplierSource.ts';
import {
  createCountersign,
  filesQuery,
  publishedNoticesQuery,
  signersQuery,
  updateCountersign,
  type DraftBody,
} from './api.ts';

interface FormValues {
  title?: string;
  supplierCode?: string;
  noticeId?: number | null;
  dueDate?: Dayjs;
  items?: string;
  fileIds?: number[];
  signerIds?: number[];
}

const field = ZCountersignDraftSchema.shape;
const dateRule = zodRule(z.preprocess((v) => (dayjs.isDayjs(v) ? v.format('YYYY-MM-DD') : v), field.dueDate));

/** What the three pickers share: they search the server as the user types, never filter locally. */
function searching(setTyped: (typed: string) => void, fetching: boolean, notFound: string) {
  return {
    showSearch: true,
    filterOption: false,
    onSearch: setTyped,
    notFoundContent: fetching ? <Spin size="small" /> : notFound,
    style: { width: '100%' },
  } as const;
}

const fileLabel = (f: CountersignFile) => `${f.standardCode} ${f.name} 版本 ${f.version}`;

/** The supplier chosen in the form: the file and notice pickers offer only what a list for it may name. */
const useChosenSupplier = () => Form.useWatch<string | undefined>('supplierCode', Form.useFormInstance());

function FilePicker({
  id,
  value,
  onChange,
  initial,
}: {
  id?: string;
  value?: number[];
  onChange?: (v: number[]) => void;
  initial: CountersignFile[];
}) {
  const [keyword, setTyped] = useSearchKeyword();
  const supplierCode = useChosenSupplier();
  const [known, setKnown] = useState(() => new Map(initial.map((f) => [f.fileId, f])));
  const search = useQuery({
    ...filesQuery({ keyword: keyword || undefined, supplierCode }),
    placeholderData: (prev) => prev,
  });
  useEffect(
    () => setKnown((m) => new Map([...m, ...(search.data ?? []).map((f) => [f.fileId, f] as const)])),
    [search.data],
  );
  const ids = new Set([...(value ?? []), ...(search.data ?? []).map((f) => f.fileId)]);
  const options = [...ids].flatMap((fid) => {
    const f = known.get(fid);
    return f ? [{ value: fid, label: fileLabel(f), title: `SHA-256: ${f.sha256}` }] : [];
  });
  return (
    <Select
      id={id}
      mode="multiple"
      value={value}
      onChange={onChange}
      placeholder={
        supplierCode ? '输入标准编号或名称，选择该供应商所供物料的文件版本' : '输入标准编号或名称，选择涉及的文件版本'
      }
      options={options}
      {...searching(
        setTyped,
        search.isFetching,
        supplierCode ? '该供应商所供物料中没有匹配的文件版本' : '没有匹配的文件版本',
      )}
    />
  );
}

function SignerPicker({
  id,
  value,
  onChange,
  initial,
}: {
  id?: string;
  value?: number[];
  onChange?: (v: number[]) => void;
  initial: CountersignDetail['signers'];
}) {
  const [keyword, setTyped] = useSearchKeyword();
  const search = useQuery({ ...signersQuery(keyword), placeholderData: (prev) => prev });
  const labels = new Map<number, string>(initial.map((s) => [s.userId, `${s.name}（${s.account}）`]));
  for (const u of search.data ?? []) labels.set(u.id, `${u.name}（${u.account}，${u.department}）`);
  const order = new Map((value ?? []).map((v, i) => [v, i + 1]));
  const options = [...labels].map(([v, label]) => ({
    value: v,
    label: order.has(v) ? `${order.get(v)}. ${label}` : label,
  }));
  return (
    <Select
      id={id}
      mode="multiple"
      value={value}
      onChange={onChange}
      placeholder="按会签顺序依次选择我方会签人"
      options={options}
      {...searching(setTyped, search.isFetching, '没有匹配的内部用户')}
    />
  );
}

function NoticePicker({
  id,
  value,
  onChange,
  initial,
}: {
  id?: string;
  value?: number | null;
  onChange?: (v: number | null) => void;
  initial: { id: number; number: string } | null;
}) {
  const [keyword, setTyped] = useSearchKeyword();
  const supplierCode = useChosenSupplier();
  const search = useQuery({ ...publishedNoticesQuery(keyword, supplierCode), placeholderData: (prev) => prev });
  const options = (search.data ?? []).map((n) => ({ value: n.id, label: `${n.number} ${n.title}` }));
  if (initial && !options.some((o) => o.value === initial.id))
    options.unshift({ value: initial.id, label: initial.number });
  return (
    <Select
      id={id}
      allowClear
      value={value ?? undefined}
      onChange={(v?: number) => onChange?.(v ?? null)}
      placeholder="可选：关联已发布的变更通知"
      options={options}
      {...searching(
        setTyped,
        search.isFetching,
        supplierCode ? '没有发给该供应商的已发布通知' : '没有匹配的已发布通知',
      )}
    />
  );
}

export function CountersignForm({
  list,
  onClose,
  onSaved,
}: {
  list?: CountersignDetail;
  onClose: () => void;
  onSaved: (saved: CountersignDetail) => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const initial: FormValues = list
    ? {
        title: list.title,
        supplierCode: list.supplierCode,
        noticeId: list.noticeId,
        dueDate: dayjs(list.dueDate),
        items: list.items,
        fileIds: list.files.map((f) => f.fileId),
        signerIds: list.signers.map((s) => s.userId),
      }
    : { dueDate: dayjs().add(COUNTERSIGN_DUE_DAYS_DEFAULT, 'day'), fileIds: [], signerIds: [] };

  const save = async () => {
    const v = await validValues(form);
    if (!v) return;
    const body: DraftBody = {
      title: v.title!,
      supplierCode: v.supplierCode!,
      noticeId: v.noticeId ?? null,
      dueDate: v.dueDate!.format('YYYY-MM-DD'),
      items: v.items!,
      fileIds: v.fileIds ?? [],
      signerIds: v.signerIds ?? [],
    };
    setBusy(true);
    setError(null);
    try {
      const saved = list ? await updateCountersign(list.id, body) : await createCountersign(body);
      message.success(`${saved.message}：${saved.data.number}`);
      onSaved(saved.data);
    } catch (e) {
      const errors = e instanceof ApiError ? e.errors : [];
      if (errors.length)
        form.setFields(errors.map((f) => ({ name: f.field.split('.')[0] as keyof FormValues, errors: [f.message] })));
      else setError(serverErrorText(e, '保存失败'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      width={760}
      title={list ? `编辑会签单 ${list.number}` : '新建会签单'}
      okText="保存"
      cancelText="取消"
      okButtonProps={{ loading: busy }}
      onOk={save}
      onCancel={onClose}
      destroyOnHidden
    >
      {list?.status === 'RETURNED' && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={`第 ${list.round} 轮已退回：修改后下发将开始第 ${list.round + 1} 轮，之前各轮的内容和签署记录保留。`}
        />
      )}
      {error && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={error} />}
      <Form form={form} name="countersign" layout="vertical" initialValues={initial}>
        <Row gutter={16}>
          <Col xs={24} md={14}>
            <Form.Item name="title" label="标题" required rules={[zodRule(field.title)]}>
              <Input maxLength={100} placeholder="例如：门体钣金件图纸升版会签" />
            </Form.Item>
          </Col>
          <Col xs={24} md={10}>
            <Form.Item name="supplierCode" label="供应商" required rules={[zodRule(field.supplierCode)]}>
              <RemoteSelect source={supplierSource} label="选择供应商" width={280} />
            </Form.Item>
          </Col>
          <Col xs={24} md={14}>
            <Form.Item name="noticeId" label="关联变更通知">
              <NoticePicker
                initial={list?.noticeId && list.noticeNumber ? { id: list.noticeId, number: list.noticeNumber } : null}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={10}>
            <Form.Item name="dueDate" label="会签截止日期" required rules={[dateRule]}>
              <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="items" label="会签事项" required rules={[zodRule(field.items)]}>
          <Input.TextArea rows={4} maxLength={2000} showCount placeholder="逐条写明需双方确认的事项" />
        </Form.Item>
        <Form.Item
          name="fileIds"
          label="涉及的文件版本"
          required
          rules={[zodRule(field.fileIds)]}
          extra="签核单将列出每个版本的 SHA-256"
        >
          <FilePicker initial={list?.files ?? []} />
        </Form.Item>
        <Form.Item
          name="signerIds"
          label="我方会签人（按顺序）"
          required
          rules={[zodRule(field.signerIds)]}
          extra={<Typography.Text type="secondary">供应商会签后，按此顺序依次会签</Typography.Text>}
        >
          <SignerPicker initial={list?.signers ?? []} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
