import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
// by path: the config loader bundles relative imports, while a workspace package's TypeScript is left to Node
import { DEFAULT_PAGE, PAGES } from '../../packages/contracts/src/basics.ts';
import { pdfjsAssets } from './pdfjs-assets.ts';

/**
 * The libraries every landing page needs (each user type's first page after the sign-in: the
 * layout, a filter form and a paged table): React Router, react-query, zod, dayjs and the antd
 * components below with what they are built on. Left to Rolldown's own splitting they came as ~60
 * files of a few KB, each compressed alone; as one chunk brotli finds the repetition across modules.
 */
const LANDING_ANTD = new Set(
  (
    '_util alert app badge breadcrumb button checkbox color-picker config-provider descriptions ' +
    'dropdown empty form grid input layout locale menu message modal notification pagination popconfirm ' +
    'popover radio result select skeleton space spin style switch table tag theme tooltip tree ' +
    'typography version watermark'
  ).split(' '),
);
const LANDING_LIBS =
  /[\\/]node_modules[\\/](@ant-design|@babel[\\/]runtime|@emotion|@rc-component|@tanstack|clsx|compute-scroll-into-view|dayjs|is-mobile|react-is|react-router|scroll-into-view-if-needed|stylis|throttle-debounce|zod)[\\/]/;
/**
 * What only other pages' antd components (tabs, steps, upload, …) or what a landing page fetches
 * after its first paint (the drawer, components/Drawer.ts) are built on: left to their chunks.
 */
const NOT_LANDING_RC =
  /[\\/]node_modules[\\/]@rc-component[\\/](drawer|input-number|mini-decimal|progress|segmented|steps|tabs|upload)[\\/]/;
/**
 * The date pickers come after the first paint (components/DateRange.tsx): antd's and
 * @rc-component's picker and dayjs' plugins stay out, but for the locale antd's zh_CN takes.
 */
const PICKER_LOCALE =
  /[\\/]node_modules[\\/](antd[\\/](es|lib)[\\/](calendar|date-picker|time-picker)|@rc-component[\\/]picker[\\/](es|lib))[\\/]locale[\\/]/;
const AFTER_FIRST_PAINT = /[\\/]node_modules[\\/](@rc-component[\\/]picker|dayjs[\\/]plugin)[\\/]/;
const ANTD = /[\\/]node_modules[\\/]antd[\\/](es|lib)[\\/]([^\\/]+)[\\/]/;

/**
 * A set of modules filled when the build has read them all: the modules `roots` picks and what they
 * import statically (lazy imports not followed), leaving out what `skip` says — a root it leaves
 * out is not in the set, what that root imports is.
 */
function staticImports(
  name: string,
  roots: (id: string, info: Rollup.ModuleInfo) => boolean,
  skip: (id: string) => boolean = () => false,
): { plugin: Plugin; has: (id: string) => boolean } {
  const ids = new Set<string>();
  const plugin: Plugin = {
    name,
    apply: 'build',
    buildEnd() {
      const imports = (id: string) => this.getModuleInfo(id)?.importedIds ?? [];
      const walk = (id: string) => {
        if (ids.has(id) || skip(id)) return;
        ids.add(id);
        imports(id).forEach(walk);
      };
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        if (info && roots(id, info)) (skip(id) ? imports(id) : [id]).forEach(walk);
      }
    },
  };
  return { plugin, has: (id) => ids.has(id) };
}

/** Modules of the login page's first load stay in its chunks: that load must not take the landing libraries with it. */
const loginFirst = staticImports('esm-login-first-load', (_, info) => Boolean(info.isEntry));

/** The files of the landing pages (features/<f>/pages/<key>.tsx, named by their key) and of the layout. */
const landingKeys = new Set(
  Object.entries(PAGES)
    .filter(([, page]) => Object.values(DEFAULT_PAGE).includes(page.path))
    .map(([key]) => key),
);
const isLandingRoot = (id: string) => {
  if (/[\\/]src[\\/]app[\\/]layout[\\/]BasicLayout\.tsx$/.test(id)) return true;
  const page = /[\\/]src[\\/]features[\\/][^\\/]+[\\/]pages[\\/]([^\\/]+)\.tsx$/.exec(id);
  return page !== null && landingKeys.has(page[1]!);
};

/**
 * The portal's own modules (and the contracts') that the layout and the landing pages import
 * statically, for one chunk: left to Rolldown they came as ~35 files of 0.1–3 KB each, fetched after
 * the shell had run, six at a time over HTTP/1.1 — a round trip each, between the shell and the
 * page's first answers. The shell imports some of them, so the chunk now comes with the shell. What
 * a page loads only after a click (dialogs, drawers) stays in its own chunks; the pages and the
 * layout stay chunks of their own (the router's lazy imports): what they import comes here.
 */
// (its walk reads loginFirst's set: plugins run in the order given below, and both walks are synchronous)
const landingApp = staticImports(
  'esm-landing-app',
  isLandingRoot,
  (id) => isLandingRoot(id) || loginFirst.has(id) || id.includes('node_modules') || id.startsWith('\0'),
);
const isLandingLib = (id: string) => {
  if (loginFirst.has(id)) return false;
  if (PICKER_LOCALE.test(id)) return true;
  if (AFTER_FIRST_PAINT.test(id)) return false;
  const antd = ANTD.exec(id);
  return antd ? LANDING_ANTD.has(antd[2]!) : LANDING_LIBS.test(id) && !NOT_LANDING_RC.test(id);
};

// Served by the api under /esm; `pnpm dev` proxies the api on :3000.
export default defineConfig({
  base: '/esm/',
  // Every asset also written as .br and .gz at build (brotli, gzip): the api serves the one the
  // browser accepts with its Content-Encoding (plugins/web.ts, preCompressed), no CPU per request.
  plugins: [react(), pdfjsAssets(), compression({ threshold: 1024 }), loginFirst.plugin, landingApp.plugin],
  server: { proxy: { '/esm-server': 'http://localhost:3000' } },
  // Page chunks are named after their files; the landing pages' libraries are one chunk and their
  // own modules another (above), without the modules they import from the login page's first load
  // (React), which stay there; the rest is left to Rolldown's own splitting. The manifest (dist/.vite/manifest.json)
  // is what the server reads to name each page's first chunks in its HTML (apps/api/src/plugins/webPreload.ts),
  // and apps/api/test/web-preload.test.ts to hold each landing page to its JavaScript budget.
  build: {
    chunkSizeWarningLimit: 1500,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'landing-libs', test: isLandingLib, includeDependenciesRecursively: false },
            { name: 'landing-app', test: landingApp.has, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
