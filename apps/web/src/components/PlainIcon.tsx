/**
 * An antd icon drawn from its SVG definition (@ant-design/icons-svg, the data @ant-design/icons
 * draws too) without @ant-design/icons' runtime: for the login page's first load, which carries
 * no antd. Same box as antd's icons: 1em square, the text's colour.
 */
import type { IconDefinition } from '@ant-design/icons-svg/lib/types';

export function PlainIcon({ icon, className }: { icon: IconDefinition; className?: string }) {
  const svg = typeof icon.icon === 'function' ? icon.icon('currentColor', 'currentColor') : icon.icon;
  return (
    <span role="img" aria-hidden="true" className={className ? `esm-icon ${className}` : 'esm-icon'}>
      <svg viewBox={svg.attrs.viewBox} width="1em" height="1em" fill="currentColor" focusable="false">
        {(svg.children ?? []).map((c, i) => (
          <path key={i} d={c.attrs.d} />
        ))}
      </svg>
    </span>
  );
}
