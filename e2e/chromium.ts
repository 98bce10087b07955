/**
 * How the e2e journeys (playwright.config.ts) and the browser benchmarks (apps/api/bench) launch
 * Chromium: Debian's /usr/bin/chromium or CHROMIUM_PATH, never a downloaded browser.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Nothing in the background that a test or a benchmark would share its two cores with.
 *
 * The last switch matters most. Chromium 156 opens a "WebUI Top Renderer" with the omnibox
 * popup's WebUI for every new browser window, and Playwright's every new context is one.
 * A trace of a first load of /esm/login showed that renderer taking ~1 s of CPU, while the
 * portal's own renderer took ~0.9 s. A person's browser pays that once, when its window opens,
 * not on each page load.
 *
 * With the popup off, the portal's renderer took ~0.5 s and the login form was usable at
 * ~0.45 s instead of ~0.7 s (the history of docs/benchmarks.md).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];
