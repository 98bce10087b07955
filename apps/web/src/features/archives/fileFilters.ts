/**
 * The filter fields of the archive lists: standard code, name, material code, version, status
 * (not on the history list, whose call has no status filter) and the effective-date range.
 */
import { FILE_STATUSES, FILE_STATUS_LABELS } from '@esm/contracts';
import type { FilterField } from '../../components/FilterForm.tsx';

export function fileFilterFields(withStatus: boolean): FilterField[] {
  return [
    { kind: 'text', name: 'standardCode', label: '标准编号' },
    { kind: 'text', name: 'name', label: '名称' },
    { kind: 'text', name: 'materialCode', label: '物料编码' },
    { kind: 'text', name: 'version', label: '版本', width: 100 },
    ...(withStatus
      ? [
          {
            kind: 'select',
            name: 'status',
            label: '状态',
            width: 110,
            options: FILE_STATUSES.map((s) => ({ value: s, label: FILE_STATUS_LABELS[s] })),
          } as const,
        ]
      : []),
    {
      kind: 'dateRange',
      from: 'dateFrom',
      to: 'dateTo',
      label: '生效日期',
      placeholder: ['生效日期起', '生效日期止'],
      width: 250,
    },
  ];
}
