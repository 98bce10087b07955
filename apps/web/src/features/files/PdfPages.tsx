/**
 * A PDF's pages drawn by pdf.js, one canvas per page plus a text layer (so the text, the
 * watermark included, can be selected and found with the browser's search). Pages are drawn when
 * they come near the visible area, and again at each zoom. Loaded lazily: pdf.js is large.
 */
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { Result } from 'antd';
import { TextLayer, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist';
import { openPdf } from './pdfjs.ts';
import './PdfPages.css';

/** Chromium refuses canvases much larger than this; pdf.js's own viewer uses the same cap. */
const MAX_CANVAS_PIXELS = 2 ** 25;

export interface PdfPagesProps {
  data: Uint8Array;
  scale: number;
  /** Called once the document is open: its page count and the first page's width at scale 1. */
  onOpen: (info: { numPages: number; pageWidth: number }) => void;
}

export default function PdfPages({ data, scale, onOpen }: PdfPagesProps) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [firstSize, setFirstSize] = useState<{ width: number; height: number } | null>(null);
  const [failed, setFailed] = useState(false);
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;

  useEffect(() => {
    setDoc(null);
    setFailed(false);
    const task = openPdf(data);
    let live = true;
    task.promise
      .then(async (d) => {
        const first = (await d.getPage(1)).getViewport({ scale: 1 });
        if (!live) return;
        setFirstSize({ width: first.width, height: first.height });
        setDoc(d);
        onOpenRef.current({ numPages: d.numPages, pageWidth: first.width });
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      void task.destroy();
    };
  }, [data]);

  if (failed)
    return <Result status="warning" title="无法显示该 PDF" subTitle="文件可能已损坏，请下载后用本地阅读器打开" />;
  if (!doc || !firstSize) return null;
  return (
    <div className="esm-pdf-pages" data-testid="pdf-pages">
      {Array.from({ length: doc.numPages }, (_, i) => (
        <PdfPage key={i} doc={doc} pageNumber={i + 1} scale={scale} estimate={firstSize} />
      ))}
    </div>
  );
}

function PdfPage({
  doc,
  pageNumber,
  scale,
  estimate,
}: {
  doc: PDFDocumentProxy;
  pageNumber: number;
  scale: number;
  estimate: { width: number; height: number };
}) {
  const holder = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const [page, setPage] = useState<PDFPageProxy | null>(null);
  const [near, setNear] = useState(false);

  useEffect(() => {
    let live = true;
    doc
      .getPage(pageNumber)
      .then((p) => live && setPage(p))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [doc, pageNumber]);

  // Draw only pages near the visible area: a long drawing set stays light.
  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: '800px 0px',
    });
    io.observe(el);
    return () => io.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    const text = textRef.current;
    if (!page || !near || !canvas || !text) return;
    const viewport = page.getViewport({ scale });
    const wanted = window.devicePixelRatio || 1;
    const ratio = Math.min(wanted, Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)));
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    const render = page.render({ canvas, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
    render.promise.catch(() => {});
    text.replaceChildren();
    const layer = new TextLayer({ textContentSource: page.streamTextContent(), container: text, viewport });
    layer.render().catch(() => {});
    return () => {
      render.cancel();
      layer.cancel();
    };
  }, [page, near, scale]);

  const size = page ? page.getViewport({ scale }) : { width: estimate.width * scale, height: estimate.height * scale };
  return (
    <div
      ref={holder}
      className="esm-pdf-page"
      data-page={pageNumber}
      style={{ width: size.width, height: size.height, '--total-scale-factor': scale } as CSSProperties}
    >
      <canvas ref={canvasRef} style={{ width: size.width, height: size.height }} aria-label={`第 ${pageNumber} 页`} />
      <div ref={textRef} className="textLayer" />
    </div>
  );
}
