/**
 * 新增 / 编辑子件: one line's fields, checked with the server's own schema; where it sits (the
 * level-1 material, and the level-2 parent for a level-3 line) is chosen when adding and stays
 * when editing. The server's refusals land on their fields, or above the form (a duplicate code,
 * a line gone meanwhile).
 */
import { useEffect, useState } from 'react';
import { Alert, App, Col, Form, Input, Modal, Row, Select, Switch, Typography } from 'antd';
import {
  BOM_LEVEL_LABELS,
  ZBomLineFieldsSchema,
  type BomLevel2,
  type BomLine,
  type BomLineFields,
} from '@esm/contracts';
import { ApiError } from '../../api/client.ts';
import { serverErrorText } from '../../components/serverErrors.ts';
import { validValues, zodRule } from '../../components/zodRule.ts';
import { addLine, updateLine, useBomMaterials } from './api.ts';

/** What the form does: add under a material (and maybe a level-2 line), or edit a line. */
export type LineTarget = { kind: 'add'; materialCode?: string; parent?: BomLevel2 } | { kind: 'edit'; line: BomLine };

type Values = Omit<BomLineFields, 'quantity'> & { quantity?: string; materialCode?: string };
const shape = ZBomLineFieldsSchema.shape;

const text = (
  name: keyof typeof shape,
  label: string,
  opts: { required?: boolean; placeholder?: string; max?: number } = {},
) => (
  <Form.Item name={name} label={label} required={opts.required} rules={[zodRule(shape[name])]}>
    <Input placeholder={opts.placeholder} maxLength={opts.max} />
  </Form.Item>
);

export function LineForm({
  target,
  onClose,
  onSaved,
}: {
  target: LineTarget | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const materials = useBomMaterials();

  useEffect(() => {
    if (!target) return;
    setRefusal(null);
    form.resetFields();
    if (target.kind === 'edit') {
      const l = target.line;
      form.setFieldsValue({
        componentCode: l.componentCode,
        componentName: l.componentName,
        spec: l.spec ?? undefined,
        quantity: String(l.quantity),
        unit: l.unit,
        hasDrawing: l.hasDrawing,
        vendorName: l.vendorName,
        vendorCreditCode: l.vendorCreditCode,
        vendorRegion: l.vendorRegion ?? undefined,
        vendorContact: l.vendorContact ?? undefined,
      });
    } else {
      form.setFieldsValue({ materialCode: target.materialCode, hasDrawing: false });
    }
  }, [target, form]);

  const save = async () => {
    if (!target) return;
    const v = await validValues(form);
    if (!v) return;
    setBusy(true);
    setRefusal(null);
    try {
      // only the line's own fields: the form also holds what was set from the row
      const fields: BomLineFields = {
        componentCode: v.componentCode,
        componentName: v.componentName,
        spec: v.spec,
        quantity: v.quantity ?? '',
        unit: v.unit,
        hasDrawing: Boolean(v.hasDrawing),
        vendorName: v.vendorName,
        vendorCreditCode: v.vendorCreditCode,
        vendorRegion: v.vendorRegion,
        vendorContact: v.vendorContact,
        vendorMobile: v.vendorMobile,
      };
      if (target.kind === 'edit') await updateLine({ id: target.line.id, ...fields });
      else
        await addLine({
          ...fields,
          materialCode: target.materialCode ?? v.materialCode ?? '',
          parentId: target.parent?.id,
        });
      message.success(target.kind === 'edit' ? '已保存' : '已新增');
      onSaved();
    } catch (e) {
      if (e instanceof ApiError && e.errors.length) {
        const known = e.errors.filter((x) => x.field in shape || x.field === 'materialCode');
        form.setFields(known.map((x) => ({ name: x.field as keyof Values, errors: [x.message] })));
        if (known.length < e.errors.length) setRefusal(e.message);
      } else setRefusal(serverErrorText(e, '保存失败'));
    } finally {
      setBusy(false);
    }
  };

  const editing = target?.kind === 'edit' ? target.line : null;
  const parent = target?.kind === 'add' ? target.parent : undefined;
  const level = editing ? editing.level : parent ? 3 : 2;
  const title = editing
    ? `编辑${BOM_LEVEL_LABELS[level as 2 | 3]}子件 ${editing.componentCode}`
    : parent
      ? `新增三级子件（上级 ${parent.componentCode} ${parent.componentName}）`
      : '新增二级子件';
  const fixedMaterial = editing?.materialCode ?? (target?.kind === 'add' ? target.materialCode : undefined);

  return (
    <Modal
      open={target !== null}
      title={title}
      width={720}
      onCancel={onClose}
      onOk={save}
      okText="保存"
      confirmLoading={busy}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" requiredMark aria-label="BOM 行">
        {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 12 }} />}
        {fixedMaterial ? (
          <Typography.Paragraph type="secondary">
            一级物料：{fixedMaterial} {materials.data?.find((m) => m.code === fixedMaterial)?.name}
            {editing && editing.level === 3 && `；上级：${editing.parentCode}`}
          </Typography.Paragraph>
        ) : (
          <Form.Item
            name="materialCode"
            label="一级物料"
            required
            rules={[{ required: true, message: '请选择一级物料' }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="本供应商供货的物料"
              loading={materials.isLoading}
              options={(materials.data ?? []).map((m) => ({
                value: m.code,
                label: `${m.code} ${m.name}（${m.lineCount} 行）`,
              }))}
            />
          </Form.Item>
        )}
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            {text('componentCode', '子件编码', { required: true, max: 40 })}
          </Col>
          <Col xs={24} sm={12}>
            {text('componentName', '子件名称', { required: true, max: 200 })}
          </Col>
          <Col xs={24} sm={12}>
            {text('spec', '规格型号', { max: 200 })}
          </Col>
          <Col xs={12} sm={6}>
            {text('quantity', '单位用量', { required: true, placeholder: '如 2 或 0.25' })}
          </Col>
          <Col xs={12} sm={6}>
            {text('unit', '单位', { required: true, placeholder: '个、kg、m', max: 16 })}
          </Col>
          <Col xs={24} sm={12}>
            {text('vendorName', '次级供应商名称', { required: true, max: 200 })}
          </Col>
          <Col xs={24} sm={12}>
            {text('vendorCreditCode', '统一社会信用代码', { required: true, max: 18 })}
          </Col>
          <Col xs={24} sm={8}>
            {text('vendorRegion', '所在地区', { max: 100 })}
          </Col>
          <Col xs={12} sm={8}>
            {text('vendorContact', '联系人', { max: 50 })}
          </Col>
          <Col xs={12} sm={8}>
            {text('vendorMobile', '联系电话', {
              placeholder: editing?.vendorMobile ? `${editing.vendorMobile}（不改请留空）` : undefined,
              max: 20,
            })}
          </Col>
          <Col xs={24}>
            <Form.Item name="hasDrawing" label="子件有自己的图纸" valuePropName="checked">
              <Switch checkedChildren="有" unCheckedChildren="无" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
