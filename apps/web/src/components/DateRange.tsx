/**
 * antd's RangePicker, its code (~27 KB brotli: @rc-component/picker, the dayjs plugins) fetched
 * when the field first renders instead of with the landing page. Until it is in, a read-only box
 * of the picker's size (the same width, antd's control height) stands in, showing the placeholder
 * or the range, so the filter bar renders at once and nothing moves when the picker takes over;
 * a field focused meanwhile keeps the focus.
 */
import { lazy, Suspense, useState } from 'react';
import { Input, theme, type DatePicker } from 'antd';
import { CalendarOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { remembered } from '../lib/lazyLoaded.ts';

export type DateRangeProps = React.ComponentProps<typeof DatePicker.RangePicker>;

const load = remembered(() => import('./rangePickerModule.ts'));
const Lazy = lazy(() => load().then((m) => ({ default: m.RangePicker })));

const DAY = 'YYYY-MM-DD';
const shown = (d: Dayjs | null | undefined) => (d?.isValid() ? d.format(DAY) : '');

/** The stand-in: the range (or the placeholder) in a box of the picker's size. */
function Standin({ value, placeholder, style, id, disabled, onFocus, ...props }: DateRangeProps) {
  const { token } = theme.useToken();
  const [a, b] = [shown(value?.[0]), shown(value?.[1])];
  const [pa, pb] = placeholder ?? ['开始日期', '结束日期'];
  return (
    <Input
      readOnly
      id={typeof id === 'string' ? id : id?.start}
      disabled={disabled === true || (Array.isArray(disabled) && disabled.every(Boolean))}
      style={style}
      aria-label={props['aria-label']}
      value={a || b ? `${a} → ${b}` : ''}
      placeholder={`${pa} → ${pb}`}
      suffix={<CalendarOutlined style={{ color: token.colorTextQuaternary }} />}
      onFocus={onFocus as React.FocusEventHandler<HTMLInputElement> | undefined}
    />
  );
}

export function DateRange(props: DateRangeProps) {
  // focused before the picker came: the picker takes the focus
  const [focused, setFocused] = useState(false);
  // in already when the field came (another page loaded it): rendered directly, for the field's life
  const [Loaded] = useState(() => load.loaded?.RangePicker);
  if (Loaded) return <Loaded {...props} />;
  return (
    <Suspense fallback={<Standin {...props} onFocus={() => setFocused(true)} />}>
      <Lazy {...props} autoFocus={props.autoFocus || focused} />
    </Suspense>
  );
}
