/**
 * The words the large benchmark data set (bench/generate.ts) is made of, so its rows read like a
 * manufacturer's archive: Chinese product lines, part names, supplier names, people, and the
 * reasons and browsers a real access log holds. Rows pick from these by a hash of their index.
 */

/** 20 product lines: code (goes into material and standard codes) and name. */
export const PRODUCT_LINES: [string, string][] = [
  ['BX', '冰箱'], ['XYJ', '洗衣机'], ['KT', '空调'], ['RSQ', '热水器'], ['YYJ', '油烟机'],
  ['RQZ', '燃气灶'], ['XWJ', '洗碗机'], ['WBL', '微波炉'], ['DS', '电视'], ['LG', '冷柜'],
  ['JSQ', '净水器'], ['GYJ', '干衣机'], ['JG', '酒柜'], ['ZYKT', '中央空调'], ['SYLL', '商用冷链'],
  ['ZNMS', '智能门锁'], ['DFB', '电饭煲'], ['KQJH', '空气净化器'], ['CSJ', '除湿机'], ['XCQ', '吸尘器'],
];

export const PART_NAMES = [
  '门体组件', '压缩机支架', '蒸发器', '冷凝器', '控制主板', '电机安装座', '门封圈', '贯流风叶', '室外机底盘', '温控器面板',
  '遥控器外壳', '滚筒内桶', '排水泵', '进水阀', '加热管', '显示面板', '电源板', '线束总成', '传感器支架', '散热片',
  '铰链组件', '箱体发泡件', '抽屉导轨', '玻璃层架', '风道组件', '接水盘', '电磁阀', '四通阀', '毛细管组件', '节流阀',
  '燃烧器', '点火针', '风机蜗壳', '密封垫', '紧固件套装', '包装泡沫', '铭牌', '侧板', '顶盖', '底座',
];

export const PART_SPECS = [
  'Q235 t=3mm 镀锌', 'SGCC t=1.2mm', 'SUS304 t=0.8mm', 'ADC12 压铸', 'ABS 白色 丝印', 'PC+ABS 哑光', 'EPDM 邵氏 60A',
  'PP+30%GF', '铝管 φ8 翅片式', '铜管 φ7 双排', 'FR-4 双面板 1.6mm', 'PA66 阻燃 V0', 'SPCC t=0.6mm 喷粉', 'HIPS 白色',
];

export const PERSON_SURNAMES = ['张', '王', '李', '赵', '刘', '陈', '杨', '黄', '周', '吴', '徐', '孙', '马', '朱', '胡', '郭', '何', '高', '林', '罗'];
export const PERSON_GIVEN = ['伟', '芳', '娜', '敏', '静', '磊', '强', '军', '洋', '勇', '艳', '杰', '涛', '明', '超', '秀英', '建华', '晓东', '海燕', '志强'];

/** Supplier names are city + brand word + trade + 有限公司: 20 × 20 × 10 distinct names. */
export const SUPPLIER_CITIES = ['青岛', '宁波', '苏州', '东莞', '佛山', '无锡', '常州', '温州', '台州', '合肥', '武汉', '成都', '重庆', '天津', '大连', '烟台', '潍坊', '昆山', '中山', '厦门'];
export const SUPPLIER_BRANDS = ['海达', '东方', '恒通', '华联', '金源', '瑞丰', '永信', '宏达', '鑫隆', '中科', '博远', '新锐', '天成', '联合', '盛世', '汇丰', '精工', '创新', '卓越', '德力'];
export const SUPPLIER_TRADES = ['精密机械', '电子科技', '塑胶制品', '五金制品', '模具', '电器配件', '橡塑', '钣金', '铝业', '包装材料'];

/** Title endings of a standard file by category. */
export const FILE_TITLES: Record<'DRAWING' | 'STANDARD' | 'SPEC' | 'OTHER', string[]> = {
  DRAWING: ['零件图', '装配图', '总成图', '安装图', '截面图', '结构图', '管路布置图', '丝印图', '爆炸图', '毛坯图'],
  STANDARD: ['技术要求', '焊接技术要求', '企业标准', '验收标准', '包装标准'],
  SPEC: ['检验规范', '工艺规范', '测试规范', '装配作业指导书'],
  OTHER: ['色差验收样板说明', '变更通知', '外观限度样本'],
};

export const REVISION_REMARKS = ['尺寸公差调整', '材料变更', '增加检验项目', '结构优化', '更换供应商指定件', '修正标注错误', '按客户投诉整改', '工艺路线调整'];
export const OBSOLETE_REASONS = ['结构变更，已由新图号替代', '产品停产', '标准废止', '设计错误，重新发布'];

/** Refusals as the server words them (modules/empower/grants.ts, files service). */
export const REFUSAL_REASONS = [
  '贵公司没有该物料的图纸授权，请先申请授权',
  '该物料的图纸授权已过期，请重新申请授权',
  '请先阅读并同意保密协议',
  '该版本已作废，无法查看',
  '贵公司不是该物料的供应商，无权查看其图纸',
];

export const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
  'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
];
