/** A supplier picker: searches getSupplierInformation by code or name as the user types. */
import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import { useSupplierSearch } from '../../../api/archives.ts';

/** `id` comes from Form.Item: it ties the field's label to the input. */
export function SupplierSelect({ id, value, onChange, width = 200 }: { id?: string; value?: string; onChange?: (v: string | undefined) => void; width?: number }) {
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed), 300);
    return () => clearTimeout(t);
  }, [typed]);
  const search = useSupplierSearch(keyword);
  const options = (search.data ?? []).map((s) => ({ value: s.code, label: `${s.code} ${s.name}` }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  return (
    <Select
      id={id}
      showSearch
      allowClear
      value={value}
      style={{ width }}
      placeholder="供应商"
      filterOption={false}
      // full supplier names in the list, however narrow the box
      popupMatchSelectWidth={false}
      onSearch={setTyped}
      onChange={(v?: string) => {
        setTyped('');
        onChange?.(v);
      }}
      notFoundContent={search.isFetching ? <Spin size="small" /> : '没有匹配的供应商'}
      options={options}
      aria-label="供应商"
    />
  );
}
