/**
 * 导入BOM: pick an .xlsx (the template's), upload it with progress to be checked as a whole;
 * a file with errors lists each one by row and column and nothing is imported; a good file
 * shows, per material, how many lines it has now and how many the file brings — replaced only
 * after 确认导入.
 */
import { useState } from 'react';
import { Alert, App, Button, Modal, Progress, Table, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { BOM_IMPORT_MAX_BYTES, BOM_IMPORT_MAX_MB, type BomImportResult, type FieldError } from '@esm/contracts';
import { ApiError } from '../../api/client.ts';
import { serverErrorText } from '../../components/serverErrors.ts';
import { importFile } from './api.ts';

type Stage =
  | { kind: 'pick' }
  | { kind: 'errors'; message: string; errors: FieldError[] }
  | { kind: 'confirm'; result: BomImportResult }
  | { kind: 'refused'; message: string };

/** "第 3 行 单位用量" → row 3, column 单位用量 (the header row's errors have no row). */
function place(field: string): { row: number | null; column: string } {
  const m = /^第 (\d+) 行 (.+)$/.exec(field);
  return m ? { row: Number(m[1]), column: m[2]! } : { row: null, column: field === 'file' ? '文件' : field };
}

export function ImportDialog({
  open,
  onClose,
  onImported,
}: {
  open: boolean;
  onClose: () => void;
  onImported: () => void;
}) {
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'pick' });
  const [percent, setPercent] = useState<number | null>(null);

  const reset = () => {
    setFile(null);
    setStage({ kind: 'pick' });
    setPercent(null);
  };

  const send = async (confirm: boolean) => {
    if (!file) return;
    setPercent(0);
    try {
      const res = await importFile(file, confirm, setPercent);
      if (confirm) {
        message.success(res.message);
        onImported();
        reset();
      } else setStage({ kind: 'confirm', result: res.data });
    } catch (e) {
      if (e instanceof ApiError && e.status === 400 && e.errors.length)
        setStage({ kind: 'errors', message: e.message, errors: e.errors });
      else setStage({ kind: 'refused', message: serverErrorText(e, '导入失败') });
    } finally {
      setPercent(null);
    }
  };

  const busy = percent !== null;
  const confirmStage = stage.kind === 'confirm' ? stage.result : null;
  const replaced = confirmStage?.materials.filter((m) => m.existing > 0) ?? [];

  return (
    <Modal
      open={open}
      title="导入二三级BOM"
      width={760}
      onCancel={() => {
        onClose();
        reset();
      }}
      mask={{ closable: false }}
      footer={[
        <Button
          key="cancel"
          onClick={() => {
            onClose();
            reset();
          }}
        >
          取消
        </Button>,
        confirmStage ? (
          <Button key="apply" type="primary" danger={replaced.length > 0} loading={busy} onClick={() => send(true)}>
            确认导入
          </Button>
        ) : (
          <Button key="check" type="primary" loading={busy} disabled={!file} onClick={() => send(false)}>
            校验文件
          </Button>
        ),
      ]}
    >
      <Upload.Dragger
        accept=".xlsx"
        maxCount={1}
        disabled={busy}
        fileList={file ? [{ uid: 'bom', name: file.name, status: 'done' }] : []}
        beforeUpload={(f) => {
          if (f.size > BOM_IMPORT_MAX_BYTES) {
            setFile(null);
            setStage({ kind: 'refused', message: `导入文件不能超过 ${BOM_IMPORT_MAX_MB} MB，请分批导入` });
          } else {
            setFile(f);
            setStage({ kind: 'pick' });
          }
          return false;
        }}
        onRemove={() => reset()}
        data-testid="bom-import-file"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">点击或拖入 .xlsx 文件（使用“下载模板”填写）</p>
        <p className="ant-upload-hint">
          不超过 {BOM_IMPORT_MAX_MB} MB；整个文件校验通过才会导入，文件中每个一级物料现有的 BOM 将被整体替换
        </p>
      </Upload.Dragger>

      {busy && (
        <Progress percent={percent} size="small" style={{ marginTop: 12 }} status="active" aria-label="上传进度" />
      )}

      {stage.kind === 'refused' && <Alert type="error" showIcon title={stage.message} style={{ marginTop: 12 }} />}

      {stage.kind === 'errors' && (
        <div style={{ marginTop: 12 }} data-testid="bom-import-errors">
          <Alert type="error" showIcon title={stage.message} description="请按下表修改文件后重新选择导入。" />
          <Table<FieldError & { key: number }>
            size="small"
            style={{ marginTop: 8 }}
            pagination={
              stage.errors.length > 8 ? { pageSize: 8, showSizeChanger: false, showTotal: (n) => `共 ${n} 处` } : false
            }
            dataSource={stage.errors.map((e, key) => ({ ...e, key }))}
            columns={[
              { title: '行号', key: 'row', width: 70, render: (_: unknown, e) => place(e.field).row ?? '—' },
              { title: '列', key: 'column', width: 140, render: (_: unknown, e) => place(e.field).column },
              { title: '问题', dataIndex: 'message' },
            ]}
          />
        </div>
      )}

      {confirmStage && (
        <div style={{ marginTop: 12 }} data-testid="bom-import-confirm">
          <Alert
            type={replaced.length ? 'warning' : 'success'}
            showIcon
            title={
              replaced.length
                ? `校验通过。将替换 ${replaced.length} 个物料的 BOM：删除现有 ${replaced.reduce((n, m) => n + m.existing, 0)} 行，导入 ${confirmStage.lines} 行`
                : `校验通过：${confirmStage.materials.length} 个物料共 ${confirmStage.lines} 行，确认后导入`
            }
          />
          <Table
            size="small"
            style={{ marginTop: 8 }}
            pagination={false}
            rowKey="code"
            dataSource={confirmStage.materials}
            columns={[
              { title: '一级物料', dataIndex: 'code', width: 130 },
              { title: '名称', dataIndex: 'name' },
              {
                title: '现有行数',
                dataIndex: 'existing',
                width: 100,
                align: 'right',
                render: (n: number) => (n ? <Typography.Text type="warning">{n}（将被替换）</Typography.Text> : 0),
              },
              { title: '导入行数', dataIndex: 'incoming', width: 90, align: 'right' },
            ]}
          />
        </div>
      )}
    </Modal>
  );
}
