/**
 * The generic search box of spec §2: optional field selector, keyword input with a clear icon,
 * search button. Emits { keyword, field? } on Enter or on the button (and when cleared).
 */
import { useState } from 'react';
import { Button, Input, Select, Space } from 'antd';
import { SearchOutlined } from '@ant-design/icons';

export interface SearchValue {
  keyword: string;
  field?: string;
}

export interface SearchBoxProps {
  placeholder?: string;
  /** When given, a field selector is shown and its value is emitted with the keyword. */
  fields?: { value: string; label: string }[];
  defaultField?: string;
  onSearch: (v: SearchValue) => void;
  width?: number;
}

export function SearchBox({ placeholder = '请输入关键字', fields, defaultField, onSearch, width = 320 }: SearchBoxProps) {
  const [keyword, setKeyword] = useState('');
  const [field, setField] = useState(defaultField ?? fields?.[0]?.value);
  const emit = (k = keyword) => onSearch(fields ? { keyword: k.trim(), field } : { keyword: k.trim() });
  return (
    <Space.Compact style={{ width }}>
      {fields && <Select value={field} onChange={setField} options={fields} style={{ width: 110 }} aria-label="搜索字段" />}
      <Input
        allowClear
        value={keyword}
        placeholder={placeholder}
        onChange={(e) => {
          setKeyword(e.target.value);
          // the clear icon empties the box: search again with no keyword
          if (e.type !== 'change' && e.target.value === '') emit('');
        }}
        onPressEnter={() => emit()}
        aria-label="关键字"
      />
      <Button type="primary" icon={<SearchOutlined />} onClick={() => emit()}>
        搜索
      </Button>
    </Space.Compact>
  );
}
