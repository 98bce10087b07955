/** 撤销授权: a confirm dialog (width 416) that asks why before closing a grant — at once, for good. */
import { ZRevokeRequestSchema, type GrantRow } from '@esm/contracts';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { revokeGrant } from './api.ts';

export function RevokeDialog({
  grant,
  onClose,
  onDone,
}: {
  grant: GrantRow | null;
  onClose: () => void;
  onDone: () => void;
}) {
  return (
    <ReasonDialog
      open={Boolean(grant)}
      name="revoke"
      title="确认撤销该授权？"
      okText="确认撤销"
      reasonLabel="撤销原因"
      placeholder="请填写撤销原因"
      reasonRule={ZRevokeRequestSchema.shape.reason}
      description={
        grant &&
        `撤销后 ${grant.supplierName}（${grant.supplierCode}）将立即不能再查看、下载或打印物料 ${grant.materialCode} ${grant.materialName} 的图纸。撤销不能恢复，如需再次授权须由供应商重新申请。`
      }
      onSubmit={async ({ reason }) => {
        await revokeGrant(grant!.id, reason);
        return `已撤销 ${grant!.supplierName} 对物料 ${grant!.materialCode} 的授权`;
      }}
      failText="撤销失败"
      onClose={onClose}
      onDone={() => {
        onDone();
        onClose();
      }}
      onFailed={onDone} // revoked or ended meanwhile: the list is stale
    />
  );
}
