/**
 * The portal's antd theme, light and dark. antd's defaults put text under the 4.5:1 contrast that
 * ordinary text needs (WCAG AA, what axe-core checks): link blue #1677ff on white is 4.1:1, the grey
 * of descriptions, table sort icons and hints (45 % black, #8c8c8c) 3.4:1, placeholders 1.8:1 and
 * the red of 作废 / errors #ff4d4f 3.3:1. These tokens keep the same hues a step darker (a step
 * lighter on the dark theme), each ≥ 4.5:1 on the page, table-header and card backgrounds.
 */
import { theme as antdTheme, type ThemeConfig } from 'antd';

/**
 * Shade 7 of some preset colours. antd keeps each shade under two names (`green7` and the older
 * `green-7`), both written to the one CSS variable --ant-green-7: set under one only, the other
 * name's default won.
 */
const shade7 = (colors: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(colors).flatMap(([name, hex]) => [
      [`${name}7`, hex],
      [`${name}-7`, hex],
    ]),
  );

const light: ThemeConfig['token'] = {
  // 6.2:1 on white; a primary button's white text on it too
  colorPrimary: '#0958d9',
  colorLink: '#0958d9',
  colorInfo: '#0958d9',
  // 5.6:1 on white, 5.1:1 on the table header's grey
  colorError: '#cf1322',
  colorErrorText: '#cf1322',
  // 60 % black, #666: 5.7:1 on white, 5.3:1 on #f5f5f5
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  colorTextDescription: 'rgba(0, 0, 0, 0.6)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.6)',
  // tags print their text in shade 7 of their colour on shade 1: for these colours that is 2–4.4:1;
  // shade 8 (9 for the yellows) is ≥ 4.5:1, e.g. 已确认 green 5.4:1, 未读 orange 5.1:1
  ...shade7({
    green: '#237804',
    volcano: '#ad2102',
    orange: '#ad4e00',
    gold: '#874d00',
    cyan: '#006d75',
    lime: '#3f6600',
    yellow: '#876800',
  }),
  // success and warning tags print in the colour itself (#52c41a, #faad14: under 2.5:1)
  colorSuccess: '#237804',
  colorWarning: '#ad4e00',
  // …on the default light tints (derived from the darker colours above they came out murky)
  colorSuccessBg: '#f6ffed',
  colorSuccessBorder: '#b7eb8f',
  colorWarningBg: '#fffbe6',
  colorWarningBorder: '#ffe58f',
};

/**
 * The dark algorithm derives every colour from its seed a step darker (a seed of #4096ff became
 * links of #3983dc, 4.4:1 on an overdue row's tint), so these seeds are lighter than what shows.
 * Shown, on #141414 and the tinted backgrounds of tags and overdue rows: links and the 进行中
 * tags #5c99dc (≥ 5.4:1), red link buttons (作废, 删除) #dc6966 (5.5:1); a primary button's
 * white text on #165bbe 6.4:1.
 */
const dark: ThemeConfig['token'] = {
  colorPrimary: '#1668dc',
  colorLink: '#69b1ff',
  colorInfo: '#69b1ff',
  colorError: '#ff7875',
  colorErrorText: '#ff7875',
  colorTextTertiary: 'rgba(255, 255, 255, 0.6)',
  colorTextDescription: 'rgba(255, 255, 255, 0.6)',
  colorTextPlaceholder: 'rgba(255, 255, 255, 0.55)',
};
/** The selected tab's text is the primary colour (2.9:1 on #141414): the links' blue instead. */
const darkComponents: ThemeConfig['components'] = {
  Tabs: { itemSelectedColor: '#5c99dc', itemHoverColor: '#5c99dc', itemActiveColor: '#5c99dc', inkBarColor: '#5c99dc' },
};

/** The theme for `name`, with antd's motion on or off. */
export const portalTheme = (name: 'light' | 'dark' | string, motion: boolean): ThemeConfig => ({
  algorithm: name === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
  token: { ...(name === 'dark' ? dark : light), motion },
  components: name === 'dark' ? darkComponents : undefined,
  // zeroRuntime: the components' styles come from antd/dist/antd.css instead of being generated in
  // the browser on each page load; the tokens above still apply as the CSS variables antd keeps
  // registering at run time.
  zeroRuntime: true,
});
