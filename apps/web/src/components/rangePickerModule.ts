/** antd's RangePicker (with @rc-component/picker and dayjs' plugins) as a chunk of its own: DateRange.tsx loads it. */
import { DatePicker } from 'antd';

export const RangePicker = DatePicker.RangePicker;
