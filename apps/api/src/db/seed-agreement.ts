/**
 * The first confidentiality agreement (保密协议 V1) that supplier users accept before they open
 * any drawing. Reference data: every installation needs one agreement in force, so
 * the demo seed and the tests call this; a later version is published as a new row.
 */
import type { Db } from './database.ts';

export const AGREEMENT_V1_TITLE = '图纸及技术资料保密协议';

export const AGREEMENT_V1_CONTENT = `甲方（图纸及技术资料提供方）与乙方（供应商及其使用本门户的人员）就乙方通过本门户查看、打印、下载甲方图纸、企业标准及技术规范（以下统称"技术资料"）事宜，达成如下协议：

第一条 保密范围
本协议所称技术资料，包括但不限于产品图纸、三维模型、企业标准、技术规范、工艺文件、检验标准、变更通知，以及由其衍生的任何复印件、扫描件、照片、摘录和电子副本。

第二条 使用限制
乙方仅可为履行与甲方之间的采购合同而使用技术资料，不得用于为第三方设计、制造或报价，不得对技术资料进行反向设计或据此申请任何知识产权。

第三条 保密义务
乙方应对技术资料严格保密，仅向确因履行合同需要知悉的本单位员工披露，并确保该等员工承担不低于本协议的保密义务。未经甲方书面同意，乙方不得以任何方式向第三方披露、转交、出售或公开技术资料。

第四条 水印与记录
乙方知悉并同意：本门户提供的每一份技术资料均带有查看人单位、账号、时间及网络地址等水印信息；每一次查看、确认、打印、下载均被记录。乙方不得去除、遮挡或篡改水印。

第五条 资料的保管与销毁
乙方应妥善保管已打印或下载的技术资料；技术资料作废、授权到期或合同终止后，乙方应在甲方要求的期限内销毁全部副本，并按要求书面确认。

第六条 账号安全
本门户账号仅限本人使用，不得转借、共享。因账号保管不善造成技术资料泄露的，由乙方承担责任。

第七条 违约责任
乙方违反本协议的，甲方有权立即终止其访问权限，并要求乙方赔偿由此造成的全部损失；构成侵犯商业秘密的，甲方将依法追究其法律责任。

第八条 期限
本协议自乙方在本门户点击"同意"之日起生效。保密义务在双方合作终止后继续有效，直至相关技术资料依法进入公知领域为止。甲方发布新版本协议后，乙方须重新阅读并签署方可继续使用技术资料。`;

/** Inserts agreement version 1 when no agreement exists yet (idempotent). */
export async function seedAgreement(db: Db): Promise<boolean> {
  if ((await db.keepsecretAgreement.count()) > 0) return false;
  await db.keepsecretAgreement.createMany({
    data: [{ version: 1, title: AGREEMENT_V1_TITLE, content: AGREEMENT_V1_CONTENT }],
    skipDuplicates: true,
  });
  return true;
}
