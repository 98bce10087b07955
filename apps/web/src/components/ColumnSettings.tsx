/**
 * 列设置: which columns a table shows. The columns a user decides by are shown by
 * default and fit a 1366 px screen; the rest start hidden and can be switched on here. The choice
 * is kept per table in local storage. Fixed columns (标准编号, 操作) are always shown.
 */
import { Button, Checkbox, Popover, Space } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useColumnChoice } from '../lib/preferences.ts';

export const columnKey = (c: { key?: unknown; dataIndex?: unknown }) => String(c.key ?? c.dataIndex ?? '');

/** The visible columns of a table with settings `table`, hiding `defaultHidden` unless the user showed them. */
export function useVisibleColumns<Row>(
  table: string | undefined,
  columns: ColumnsType<Row>,
  defaultHidden: readonly string[] = [],
) {
  const [choice, setChoice] = useColumnChoice(table ?? '');
  if (!table) return { visible: columns, control: null };
  const shown = (c: ColumnsType<Row>[number]) =>
    Boolean(c.fixed) || (choice[columnKey(c)] ?? !defaultHidden.includes(columnKey(c)));
  const optional = columns.filter((c) => !c.fixed);
  const control = (
    <Popover
      trigger="click"
      placement="bottomRight"
      title="显示的列"
      content={
        <Space orientation="vertical" size={4} data-testid="column-settings">
          {optional.map((c) => (
            <Checkbox
              key={columnKey(c)}
              checked={shown(c)}
              onChange={(e) => setChoice({ ...choice, [columnKey(c)]: e.target.checked })}
            >
              {String(c.title)}
            </Checkbox>
          ))}
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setChoice({})}>
            恢复默认
          </Button>
        </Space>
      }
    >
      <Button icon={<SettingOutlined aria-hidden />}>列设置</Button>
    </Popover>
  );
  return { visible: columns.filter(shown), control };
}
