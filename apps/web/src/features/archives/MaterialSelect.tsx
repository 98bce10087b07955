/** A material picker: searches getMaterialPager by code or name as the user types. */
import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import { useMaterialSearch } from './api.ts';

/** `id` comes from Form.Item: it ties the field's label to the input. */
export function MaterialSelect({
  id,
  value,
  onChange,
  disabled,
}: {
  id?: string;
  value?: string;
  onChange?: (v: string | undefined) => void;
  disabled?: boolean;
}) {
  const [typed, setTyped] = useState<string | null>(null);
  const [keyword, setKeyword] = useState('');
  // wait for a pause in typing; with nothing typed, look up the chosen material for its label
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed ?? value ?? ''), typed === null ? 0 : 300);
    return () => clearTimeout(t);
  }, [typed, value]);
  const search = useMaterialSearch(keyword);
  const options = (search.data ?? []).map((m) => ({
    value: m.code,
    label: `${m.code} ${m.name}${m.spec ? `（${m.spec}）` : ''}`,
  }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  return (
    <Select
      id={id}
      showSearch
      allowClear
      value={value}
      disabled={disabled}
      placeholder="输入物料编码或名称搜索"
      filterOption={false}
      onSearch={(v) => setTyped(v)}
      onChange={(v?: string) => {
        setTyped(null);
        onChange?.(v);
      }}
      onOpenChange={(open) => !open && setTyped(null)}
      notFoundContent={search.isFetching ? <Spin size="small" /> : '没有匹配的物料'}
      options={options}
    />
  );
}
