/**
 * The filter bar of the archive lists: standard code, name, material code, version, status
 * (not on the history list, whose call has no status filter) and effective-date range, applied
 * with 搜索 and cleared with 重置.
 */
import { FilterButtons } from '../../../components/FilterButtons.tsx';
import { DatePicker, Form, Input, Select, type FormInstance } from 'antd';
import type { Dayjs } from 'dayjs';
import { FILE_STATUSES, FILE_STATUS_LABELS, type FileStatus } from '@esm/contracts';

export interface FileFilters {
  standardCode?: string;
  name?: string;
  materialCode?: string;
  version?: string;
  status?: FileStatus;
  dateFrom?: string;
  dateTo?: string;
}

export interface FileFilterValues {
  standardCode?: string;
  name?: string;
  materialCode?: string;
  version?: string;
  status?: FileStatus;
  dates?: [Dayjs | null, Dayjs | null] | null;
}

/** The form's values as the request's filters (blank → no filter). */
export function toFileFilters(v: FileFilterValues): FileFilters {
  const text = (s?: string) => s?.trim() || undefined;
  return {
    standardCode: text(v.standardCode),
    name: text(v.name),
    materialCode: text(v.materialCode),
    version: text(v.version),
    status: v.status,
    dateFrom: v.dates?.[0]?.format('YYYY-MM-DD'),
    dateTo: v.dates?.[1]?.format('YYYY-MM-DD'),
  };
}

export interface FileFilterBarProps {
  form: FormInstance<FileFilterValues>;
  withStatus?: boolean;
  initialValues?: FileFilterValues;
  onSearch: (f: FileFilters) => void;
  onReset: () => void;
}

export function FileFilterBar({ form, withStatus = true, initialValues, onSearch, onReset }: FileFilterBarProps) {
  return (
    <Form<FileFilterValues> form={form} name="fileFilters" layout="inline" initialValues={initialValues} onFinish={(v) => onSearch(toFileFilters(v))} style={{ rowGap: 12 }} data-testid="file-filters">
      <Form.Item name="standardCode">
        <Input allowClear placeholder="标准编号" style={{ width: 150 }} aria-label="标准编号" />
      </Form.Item>
      <Form.Item name="name">
        <Input allowClear placeholder="名称" style={{ width: 150 }} aria-label="名称" />
      </Form.Item>
      <Form.Item name="materialCode">
        <Input allowClear placeholder="物料编码" style={{ width: 150 }} aria-label="物料编码" />
      </Form.Item>
      <Form.Item name="version">
        <Input allowClear placeholder="版本" style={{ width: 100 }} aria-label="版本" />
      </Form.Item>
      {withStatus && (
        <Form.Item name="status">
          <Select
            allowClear
            placeholder="状态"
            style={{ width: 110 }}
            options={FILE_STATUSES.map((s) => ({ value: s, label: FILE_STATUS_LABELS[s] }))}
            aria-label="状态"
          />
        </Form.Item>
      )}
      <Form.Item name="dates">
        <DatePicker.RangePicker placeholder={['生效日期起', '生效日期止']} style={{ width: 250 }} aria-label="生效日期" />
      </Form.Item>
      <Form.Item>
        <FilterButtons
          onReset={() => {
            form.resetFields();
            onReset();
          }}
        />
      </Form.Item>
    </Form>
  );
}
