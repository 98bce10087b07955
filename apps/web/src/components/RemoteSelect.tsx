/** A picker that searches the server as the user types (a supplier, a material, a user). */
import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';

export interface RemoteOption {
  value: string;
  label: string;
}

/** What a remote picker searches: its name (cache key) and the call behind it. */
export interface RemoteSource {
  key: string;
  search: (keyword: string) => Promise<RemoteOption[]>;
  /** Shown when nothing matches, e.g. 没有匹配的供应商. */
  notFound: string;
}

/** What the user types into a search box, as the keyword to ask for once typing has paused 300 ms. */
export function useSearchKeyword(): [keyword: string, setTyped: (typed: string) => void] {
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed), 300);
    return () => clearTimeout(t);
  }, [typed]);
  return [keyword, setTyped];
}

/** `id` comes from Form.Item: it ties the field's label to the input. */
export function RemoteSelect({
  source,
  label,
  id,
  value,
  onChange,
  width = 200,
}: {
  source: RemoteSource;
  label: string;
  id?: string;
  value?: string;
  onChange?: (v: string | undefined) => void;
  width?: number;
}) {
  const [keyword, setTyped] = useSearchKeyword();
  const search = useQuery({
    queryKey: ['remote', source.key, keyword],
    queryFn: () => source.search(keyword),
    staleTime: 60_000,
  });
  const options = [...(search.data ?? [])];
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  return (
    <Select
      id={id}
      showSearch
      allowClear
      value={value}
      style={{ width }}
      placeholder={label}
      filterOption={false}
      // full names in the list, however narrow the box
      popupMatchSelectWidth={false}
      onSearch={setTyped}
      onChange={(v?: string) => {
        setTyped('');
        onChange?.(v);
      }}
      notFoundContent={search.isFetching ? <Spin size="small" /> : source.notFound}
      options={options}
      aria-label={label}
    />
  );
}
