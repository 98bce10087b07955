/**
 * The file viewer, shared by the supplier and internal archive pages: a full-height
 * drawer showing the copy the server stamped for this viewer — a PDF through pdf.js (every page,
 * page count, zoom), an image as is — with 打印 and 下载 (each fetches its own stamped, logged
 * copy) and, for suppliers, 确认图纸. DWG/DXF are never shown, only downloaded.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { App, Button, Drawer, Popconfirm, Progress, Result, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useMd } from '../../components/useScreen.ts';
import {
  CheckCircleOutlined,
  ColumnWidthOutlined,
  DownloadOutlined,
  PrinterOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { FILE_TYPES, statusErrorText, type FileType } from '@esm/contracts';
import { ApiError } from '../../api/client.ts';
import { fetchFile } from './api.ts';
import { useToastsBelow } from '../../components/toastTop.ts';
import { downloadFile, printFile, runDirectly, type Run } from './fileActions.ts';
import { formatDateTime, formatFileSize } from '../../components/labels.tsx';

const PdfPages = lazy(() => import('./PdfPages.tsx'));

export interface ViewerFile {
  id: number;
  standardCode: string;
  name: string;
  version: string;
  fileName: string;
  fileType: FileType;
}

export interface FileViewerProps {
  /** The file to show; null closes the viewer. */
  file: ViewerFile | null;
  onClose: () => void;
  /** Wraps each server call (the supplier pages pass the confidentiality gate). */
  run?: Run;
  /** Suppliers only: the file's confirmation and how to confirm it. */
  confirm?: { confirmedAt: string | null | undefined; onConfirm: () => Promise<unknown> };
}

type Loaded = { kind: 'pdf'; data: Uint8Array } | { kind: 'image'; url: string };

const ZOOM_STEP = 1.25;
const ZOOM_MIN = 0.25;
const ZOOM_MAX = 5;
const clampZoom = (s: number) => Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, s));
/**
 * 确认图纸's popconfirm opens below the toolbar, where the viewer's toasts are: it must stay on
 * top of them (antd message: zIndexPopupBase 1000 + 1000 container offsets + 10).
 */
const ABOVE_TOASTS_Z = 2020;

export function FileViewer({ file, onClose, run = runDirectly, confirm }: FileViewerProps) {
  const { message } = App.useApp();
  const md = useMd();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [progress, setProgress] = useState<{ received: number; total: number | null }>({ received: 0, total: null });
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [scale, setScale] = useState<number | null>(null);
  const [fitScale, setFitScale] = useState(1);
  const [numPages, setNumPages] = useState<number | null>(null);
  const [imageWidth, setImageWidth] = useState<number | null>(null);
  const [busy, setBusy] = useState<'print' | 'download' | 'confirm' | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  // toasts (已下载…, errors) appear below the toolbar while the viewer is open, not over its buttons
  const [toolbarEl, setToolbarEl] = useState<HTMLDivElement | null>(null);
  useToastsBelow(toolbarEl);
  // the latest callbacks, without reloading the file when a parent re-renders
  const latest = useRef({ run, onClose });
  latest.current = { run, onClose };

  const viewable = file ? FILE_TYPES[file.fileType].viewable : false;

  useEffect(() => {
    setLoaded(null);
    setError(null);
    setScale(null);
    setNumPages(null);
    setImageWidth(null);
    setProgress({ received: 0, total: null });
    if (!file || !FILE_TYPES[file.fileType].viewable) return;
    const abort = new AbortController();
    let imageUrl: string | null = null;
    latest.current
      .run(() => fetchFile('view', file.id, (received, total) => setProgress({ received, total }), abort.signal))
      .then(async (res) => {
        if (abort.signal.aborted) return;
        if (!res) return latest.current.onClose(); // the agreement was declined
        if (res.type.includes('pdf'))
          return setLoaded({ kind: 'pdf', data: new Uint8Array(await res.blob.arrayBuffer()) });
        imageUrl = URL.createObjectURL(res.blob);
        setLoaded({ kind: 'image', url: imageUrl });
      })
      .catch((e: unknown) => {
        if (abort.signal.aborted) return;
        setError(e instanceof ApiError ? e.message || statusErrorText(e.status, e.path) : '文件加载失败，请稍后重试');
      });
    return () => {
      abort.abort();
      if (imageUrl) URL.revokeObjectURL(imageUrl);
    };
  }, [file, attempt]);

  /** The scale at which a page (or picture) of this width fills the viewer's width (pictures are not blown up). */
  const fitTo = useCallback((contentWidth: number, maxFit = ZOOM_MAX) => {
    const available = (scroller.current?.clientWidth ?? 800) - 32;
    const fit = clampZoom(Math.min(maxFit, available / contentWidth));
    setFitScale(fit);
    setScale((s) => s ?? fit);
  }, []);

  const act = async (kind: 'print' | 'download', id: number) => {
    setBusy(kind);
    try {
      if (kind === 'print') {
        if (await printFile(id, run)) message.success('已打开打印对话框，打印件带有您的水印');
      } else {
        const name = await downloadFile(id, run);
        if (name) message.success(`已下载：${name}`);
      }
    } catch {
      // the API client has shown why
    } finally {
      setBusy(null);
    }
  };

  const doConfirm = async () => {
    if (!confirm) return;
    setBusy('confirm');
    try {
      await confirm.onConfirm();
    } finally {
      setBusy(null);
    }
  };

  const shownScale = scale ?? fitScale;
  const percent = progress.total ? Math.min(100, Math.round((progress.received / progress.total) * 100)) : null;

  const toolbar = file && (
    <Space
      ref={setToolbarEl}
      wrap
      size={[8, 8]}
      style={{ padding: '8px 12px', borderBottom: '1px solid rgba(128,128,128,0.25)' }}
      data-testid="viewer-toolbar"
    >
      {viewable && (
        <Space.Compact>
          <Tooltip title="缩小">
            <Button
              icon={<ZoomOutOutlined />}
              aria-label="缩小"
              disabled={!loaded || shownScale <= ZOOM_MIN}
              onClick={() => setScale(clampZoom(shownScale / ZOOM_STEP))}
            />
          </Tooltip>
          <Button disabled style={{ width: 72, color: 'inherit' }} aria-label="缩放比例">
            {Math.round(shownScale * 100)}%
          </Button>
          <Tooltip title="放大">
            <Button
              icon={<ZoomInOutlined />}
              aria-label="放大"
              disabled={!loaded || shownScale >= ZOOM_MAX}
              onClick={() => setScale(clampZoom(shownScale * ZOOM_STEP))}
            />
          </Tooltip>
          <Tooltip title="适合宽度">
            <Button
              icon={<ColumnWidthOutlined />}
              aria-label="适合宽度"
              disabled={!loaded}
              onClick={() => setScale(fitScale)}
            />
          </Tooltip>
        </Space.Compact>
      )}
      {numPages !== null && <Typography.Text type="secondary">共 {numPages} 页</Typography.Text>}
      {viewable && (
        <Button
          icon={<PrinterOutlined />}
          loading={busy === 'print'}
          disabled={!!busy}
          onClick={() => act('print', file.id)}
        >
          打印
        </Button>
      )}
      <Button
        icon={<DownloadOutlined />}
        loading={busy === 'download'}
        disabled={!!busy}
        onClick={() => act('download', file.id)}
      >
        下载
      </Button>
      {confirm &&
        (confirm.confirmedAt ? (
          <Tag color="green" icon={<CheckCircleOutlined />} style={{ marginInlineEnd: 0, padding: '4px 8px' }}>
            已确认 {formatDateTime(confirm.confirmedAt)}
          </Tag>
        ) : (
          <Popconfirm
            title="确认图纸"
            description="确认您已阅读并知悉该图纸的内容？"
            okText="确认"
            cancelText="取消"
            onConfirm={doConfirm}
            zIndex={ABOVE_TOASTS_Z}
          >
            <Button
              type="primary"
              icon={<CheckCircleOutlined />}
              loading={busy === 'confirm'}
              disabled={!!busy && busy !== 'confirm'}
            >
              确认图纸
            </Button>
          </Popconfirm>
        ))}
    </Space>
  );

  return (
    <Drawer
      open={!!file}
      onClose={onClose}
      size={md ? '88%' : '100%'}
      destroyOnHidden
      title={
        file && (
          <Space size={8} wrap>
            <span>
              {file.standardCode} {file.name}
            </span>
            <Tag>{file.version}</Tag>
          </Space>
        )
      }
      styles={{ body: { padding: 0, display: 'flex', flexDirection: 'column', overflow: 'hidden' } }}
      className="esm-file-viewer"
    >
      {toolbar}
      <div ref={scroller} style={{ flex: 1, overflow: 'auto', background: '#525659' }} data-testid="viewer-body">
        {!file ? null : !viewable ? (
          <Result
            style={{ background: '#fff' }}
            status="info"
            title="该类型文件不支持在线查看"
            subTitle={`${file.fileType.toUpperCase()} 图纸请下载后用 CAD 软件打开；下载的文件名带有您的标识并会记录。`}
          />
        ) : error ? (
          <Result
            style={{ background: '#fff' }}
            status="error"
            title="无法打开文件"
            subTitle={error}
            extra={
              <Button type="primary" onClick={() => setAttempt((n) => n + 1)}>
                重试
              </Button>
            }
          />
        ) : !loaded ? (
          <div
            style={{
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              gap: 12,
              paddingTop: 120,
              color: '#fff',
            }}
            data-testid="viewer-loading"
          >
            {percent !== null ? (
              <Progress
                aria-label="加载进度"
                type="circle"
                percent={percent}
                size={88}
                strokeColor="#69b1ff"
                format={(p) => <span style={{ color: '#fff' }}>{p}%</span>}
              />
            ) : (
              <Spin size="large" />
            )}
            <span>正在加载加盖水印的文件… {progress.received > 0 ? formatFileSize(progress.received) : ''}</span>
          </div>
        ) : loaded.kind === 'pdf' ? (
          <Suspense fallback={<Spin size="large" style={{ display: 'block', margin: '120px auto' }} />}>
            <PdfPages
              data={loaded.data}
              scale={shownScale}
              onOpen={({ numPages: n, pageWidth }) => {
                setNumPages(n);
                fitTo(pageWidth);
              }}
            />
          </Suspense>
        ) : (
          <div style={{ padding: 16, textAlign: 'center' }}>
            <img
              src={loaded.url}
              alt={file.name}
              data-testid="viewer-image"
              onLoad={(e) => {
                const w = e.currentTarget.naturalWidth;
                setImageWidth(w);
                fitTo(w, 1);
              }}
              style={{
                width: imageWidth ? imageWidth * shownScale : undefined,
                maxWidth: imageWidth ? undefined : '100%',
                background: '#fff',
                boxShadow: '0 1px 4px rgba(0,0,0,0.35)',
              }}
            />
          </div>
        )}
      </div>
    </Drawer>
  );
}
