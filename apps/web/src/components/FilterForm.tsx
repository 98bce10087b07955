/**
 * The declarative filter form of every list page: text, select, date range and
 * remote select fields in one inline form with 搜索 / 重置. Texts apply on Enter or 搜索; a pick
 * (select, remote select, dates) applies at once. What it hands on are the request's filters:
 * trimmed texts, blanks as absent, a date range as its two `YYYY-MM-DD` fields.
 */
import { useEffect, useRef } from 'react';
import { Form, Input, Select, type SelectProps } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { DateRange } from './DateRange.tsx';
import { FilterButtons } from './FilterButtons.tsx';
import { RemoteSelect, type RemoteSource } from './RemoteSelect.tsx';
import { refreshLists } from './PagedTable.tsx';

/** One choice of a select field. */
export interface SelectOption {
  value: string | number;
  label: string;
}

export type FilterField =
  | { kind: 'text'; name: string; label: string; placeholder?: string; width?: number }
  | {
      kind: 'select';
      name: string;
      label: string;
      /** The choices, or groups of them (a long list under headings). */
      options: SelectOption[] | { label: string; options: SelectOption[] }[];
      width?: number;
      /** Typing narrows the choices by their label (a long list). */
      search?: boolean;
    }
  | { kind: 'dateRange'; from: string; to: string; label: string; placeholder?: [string, string]; width?: number }
  | { kind: 'remote'; name: string; label: string; source: RemoteSource; width?: number };

export type Filters = Record<string, string | number | undefined>;

const rangeKey = (f: { from: string; to: string }) => `${f.from}~${f.to}`;
const DAY = 'YYYY-MM-DD';

/** The form's values as the request's filters (blank → absent). */
function toFilters(fields: readonly FilterField[], values: Record<string, unknown>): Filters {
  const out: Filters = {};
  for (const f of fields) {
    if (f.kind === 'dateRange') {
      const range = values[rangeKey(f)] as [Dayjs | null, Dayjs | null] | null | undefined;
      out[f.from] = range?.[0]?.format(DAY);
      out[f.to] = range?.[1]?.format(DAY);
    } else {
      const v = values[f.name];
      out[f.name] = typeof v === 'string' ? v.trim() || undefined : ((v as number | undefined) ?? undefined);
    }
  }
  return out;
}

/** Filters as the form's values (to preset the form, e.g. from the address bar). */
function toValues(fields: readonly FilterField[], filters: Filters): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.kind === 'dateRange') {
      const [a, b] = [filters[f.from], filters[f.to]];
      if (a || b) out[rangeKey(f)] = [a ? dayjs(String(a)) : null, b ? dayjs(String(b)) : null];
    } else if (filters[f.name] !== undefined) out[f.name] = filters[f.name];
  }
  return out;
}

export interface FilterFormProps {
  fields: readonly FilterField[];
  onChange: (filters: Filters) => void;
  /** Filters set when the page opens (and whenever they change from outside, e.g. a tree pick). */
  values?: Filters;
  testId?: string;
}

export function FilterForm({ fields, onChange, values, testId }: FilterFormProps) {
  const [form] = Form.useForm();
  const queryClient = useQueryClient();
  const valuesKey = JSON.stringify(values ?? {});
  // the filters last handed on (or set from outside): the same again asks the lists again
  const last = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (values) form.setFieldsValue(toValues(fields, values));
    last.current = JSON.stringify(toFilters(fields, form.getFieldsValue()));
    // set again only when the values from outside change
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [valuesKey]);
  const hand = (filters: Filters) => {
    const key = JSON.stringify(filters);
    if (key === last.current) void refreshLists(queryClient);
    last.current = key;
    onChange(filters);
  };
  const submit = () => hand(toFilters(fields, form.getFieldsValue()));
  return (
    <Form
      form={form}
      layout="inline"
      onFinish={submit}
      initialValues={values ? toValues(fields, values) : undefined}
      style={{ rowGap: 12, marginBottom: 16 }}
      data-testid={testId}
    >
      {fields.map((f) => {
        switch (f.kind) {
          case 'text':
            return (
              <Form.Item key={f.name} name={f.name}>
                <Input
                  allowClear
                  placeholder={f.placeholder ?? f.label}
                  style={{ width: f.width ?? 150 }}
                  aria-label={f.label}
                />
              </Form.Item>
            );
          case 'select':
            return (
              <Form.Item key={f.name} name={f.name}>
                <Select
                  allowClear
                  placeholder={f.label}
                  style={{ width: f.width ?? 140 }}
                  // choices or groups of them: antd's options take both
                  options={f.options as SelectProps['options']}
                  aria-label={f.label}
                  onChange={() => setTimeout(submit)}
                  // a searched list shows its choices in full, wider than the field when it must
                  {...(f.search ? { showSearch: { optionFilterProp: 'label' }, popupMatchSelectWidth: false } : {})}
                />
              </Form.Item>
            );
          case 'remote':
            return (
              <Form.Item key={f.name} name={f.name}>
                <RemoteSelect
                  source={f.source}
                  label={f.label}
                  width={f.width ?? 180}
                  onChange={() => setTimeout(submit)}
                />
              </Form.Item>
            );
          case 'dateRange':
            return (
              <Form.Item key={rangeKey(f)} name={rangeKey(f)}>
                <DateRange
                  placeholder={f.placeholder ?? ['开始日期', '结束日期']}
                  style={{ width: f.width ?? 240 }}
                  aria-label={f.label}
                  onChange={() => setTimeout(submit)}
                />
              </Form.Item>
            );
        }
      })}
      <Form.Item>
        <FilterButtons
          onReset={() => {
            form.resetFields();
            form.setFieldsValue(Object.fromEntries(Object.keys(form.getFieldsValue()).map((k) => [k, undefined])));
            hand(toFilters(fields, {}));
          }}
        />
      </Form.Item>
    </Form>
  );
}
