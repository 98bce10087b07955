/**
 * 作废: a confirm dialog (width 416) that states the decision and asks for the reason.
 * Obsoleting the effective version either restores the previous version to effect (the default
 * when there is one) or withdraws the whole standard — with what each means for suppliers.
 */
import { Form, Radio, Typography } from 'antd';
import { ZObsoleteRequestSchema, type ObsoleteScope, type StandardFileRow } from '@esm/contracts';
import { obsoleteStandardFile, useVersionsOf } from './api.ts';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';

export function ObsoleteDialog({
  file,
  onClose,
  onDone,
}: {
  file: StandardFileRow | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const versions = useVersionsOf(file?.standardCode);
  const inForce = (versions.data ?? []).filter((v) => v.status !== 'OBSOLETE');
  // what the server restores: the latest earlier version still in force
  const previous =
    file?.status === 'EFFECTIVE'
      ? inForce.filter((v) => v.status === 'HISTORY').sort((a, b) => b.versionNo - a.versionNo)[0]
      : undefined;
  return (
    <ReasonDialog<{ reason: string; scope: ObsoleteScope }>
      open={Boolean(file)}
      name="obsolete"
      title="确认作废该版本？"
      okText="确认作废"
      reasonLabel="作废原因"
      placeholder="请填写作废原因"
      reasonRule={ZObsoleteRequestSchema.shape.reason}
      description={
        file &&
        `${file.standardCode} ${file.name} ${file.version}（第${file.versionNo}版）作废后不能恢复，供应商将不能再查看、下载或打印该版本。`
      }
      initialValues={{ scope: 'VERSION' }}
      fields={
        <Form.Item name="scope" label="作废范围" data-testid="obsolete-scope">
          <Radio.Group style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
            <Radio value="VERSION">
              {file?.status !== 'EFFECTIVE'
                ? '只作废此版本（生效版本不受影响）'
                : previous
                  ? `作废此版本并恢复上一版本（${previous.version}）为生效`
                  : '作废此版本（该标准将没有生效版本，供应商的列表中不再有它）'}
              {previous && (
                <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                  供应商将看到并可确认 {previous.version} 版
                </Typography.Text>
              )}
            </Radio>
            <Radio value="STANDARD">
              整个标准作废
              <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                {inForce.length} 个版本全部作废，供应商将不能再查看、下载或打印该标准的任何版本
              </Typography.Text>
            </Radio>
          </Radio.Group>
        </Form.Item>
      }
      onSubmit={async ({ reason, scope }) => {
        const res = await obsoleteStandardFile(file!.id, reason, scope);
        // the server says what else changed (a version restored, or how many were withdrawn)
        return res.message === '已作废'
          ? `已作废 ${file!.standardCode} ${file!.version}`
          : `已作废 ${file!.standardCode} ${file!.version}（${res.message}）`;
      }}
      failText="作废失败"
      onClose={onClose}
      onDone={onDone}
    />
  );
}
