/**
 * The filter bar of the supplier's file lists: product line, material code, standard code, name,
 * effective-date range; 搜索 applies, 重置 clears. Fields the page fixes (the tree's selection)
 * are left out.
 */
import { FilterButtons } from '../../components/FilterButtons.tsx';
import { useEffect, useState } from 'react';
import { Button, Col, Form, Input, Row, Select } from 'antd';
import { DateRange } from '../../components/DateRange.tsx';
import { useMd } from '../../components/useScreen.ts';
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { useSupplierProductLines } from './api.ts';
import { refreshLists } from '../../components/PagedTable.tsx';

export interface SupplierFileFilterValues {
  productLineCode?: string;
  materialCode?: string;
  standardCode?: string;
  name?: string;
  /** Effective-date range, YYYY-MM-DD. */
  dateFrom?: string;
  dateTo?: string;
}

interface FormValues {
  productLineCode?: string;
  materialCode?: string;
  standardCode?: string;
  name?: string;
  dates?: [Dayjs | null, Dayjs | null];
}

const toForm = (v: SupplierFileFilterValues): FormValues => ({
  productLineCode: v.productLineCode,
  materialCode: v.materialCode,
  standardCode: v.standardCode,
  name: v.name,
  dates:
    v.dateFrom || v.dateTo ? [v.dateFrom ? dayjs(v.dateFrom) : null, v.dateTo ? dayjs(v.dateTo) : null] : undefined,
});

const trimmed = (s?: string) => s?.trim() || undefined;

export function SupplierFileFilters({
  value,
  onChange,
  hide = [],
}: {
  value: SupplierFileFilterValues;
  onChange: (v: SupplierFileFilterValues) => void;
  hide?: ('productLineCode' | 'materialCode')[];
}) {
  const [form] = Form.useForm<FormValues>();
  const productLines = useSupplierProductLines();
  // on a phone only the codes show until 更多条件 opens the rest
  const compact = !useMd();
  const [more, setMore] = useState(false);
  const all = !compact || more || !!(value.productLineCode || value.materialCode || value.dateFrom || value.dateTo);
  // a page may change the filters itself (e.g. from the address): show what is applied
  useEffect(() => form.setFieldsValue(toForm(value)), [form, value]);

  const queryClient = useQueryClient();
  // the filters as they were, searched again: ask the list again (FilterForm does the same)
  const hand = (next: SupplierFileFilterValues) => {
    if (JSON.stringify(next) === JSON.stringify(value)) void refreshLists(queryClient);
    onChange(next);
  };
  const apply = (f: FormValues) =>
    hand({
      productLineCode: f.productLineCode || undefined,
      materialCode: trimmed(f.materialCode),
      standardCode: trimmed(f.standardCode),
      name: trimmed(f.name),
      dateFrom: f.dates?.[0]?.format('YYYY-MM-DD'),
      dateTo: f.dates?.[1]?.format('YYYY-MM-DD'),
    });

  const col = { xs: 24, sm: 12, lg: 8, xxl: 6 };
  return (
    <Form form={form} onFinish={apply} initialValues={toForm(value)} data-testid="file-filters">
      <Row gutter={[12, 0]}>
        {all && !hide.includes('productLineCode') && (
          <Col {...col}>
            <Form.Item name="productLineCode" style={{ marginBottom: 12 }}>
              <Select
                allowClear
                placeholder="产品线"
                aria-label="产品线"
                loading={productLines.isPending}
                options={(productLines.data ?? []).map((p) => ({ value: p.code, label: p.name }))}
              />
            </Form.Item>
          </Col>
        )}
        {all && !hide.includes('materialCode') && (
          <Col {...col}>
            <Form.Item name="materialCode" style={{ marginBottom: 12 }}>
              <Input allowClear maxLength={40} placeholder="物料编码" aria-label="物料编码" />
            </Form.Item>
          </Col>
        )}
        <Col {...col}>
          <Form.Item name="standardCode" style={{ marginBottom: 12 }}>
            <Input allowClear maxLength={64} placeholder="标准编号" aria-label="标准编号" />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item name="name" style={{ marginBottom: 12 }}>
            <Input allowClear maxLength={200} placeholder="名称" aria-label="名称" />
          </Form.Item>
        </Col>
        {all && (
          <Col {...col}>
            <Form.Item name="dates" style={{ marginBottom: 12 }}>
              <DateRange
                allowEmpty={[true, true]}
                placeholder={['生效日期起', '生效日期止']}
                style={{ width: '100%' }}
                aria-label="生效日期"
              />
            </Form.Item>
          </Col>
        )}
        <Col {...col}>
          <FilterButtons
            style={{ marginBottom: 12 }}
            onReset={() => {
              form.resetFields();
              form.setFieldsValue(toForm({}));
              hand({});
            }}
            extra={
              <>
                {compact && (
                  <Button
                    type="link"
                    icon={more ? <UpOutlined /> : <DownOutlined />}
                    onClick={() => setMore((m) => !m)}
                  >
                    {more ? '收起' : '更多条件'}
                  </Button>
                )}
              </>
            }
          />
        </Col>
      </Row>
    </Form>
  );
}
