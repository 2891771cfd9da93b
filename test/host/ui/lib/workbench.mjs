// @ts-check
// Shared workbench actions for page checks (this folder is not scanned for checks).

/**
 * The part of Playwright's API the host runs use. playwright-core comes with the offline host
 * (it is not a dependency of this repository), so its own types are not installed here.
 * @typedef {{
 *   first(): Locator,
 *   last(): Locator,
 *   nth(index: number): Locator,
 *   filter(options: { hasText?: string | RegExp, hasNotText?: string | RegExp }): Locator,
 *   locator(selector: string, options?: { hasText?: string | RegExp }): Locator,
 *   getByText(text: string | RegExp, options?: { exact?: boolean }): Locator,
 *   getByRole(role: string, options?: { name?: string | RegExp, exact?: boolean }): Locator,
 *   click(options?: { button?: 'left' | 'right', position?: { x: number, y: number }, timeout?: number }): Promise<void>,
 *   hover(options?: { force?: boolean, timeout?: number }): Promise<void>,
 *   waitFor(options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden', timeout?: number }): Promise<void>,
 *   fill(value: string): Promise<void>,
 *   innerText(): Promise<string>,
 *   allInnerTexts(): Promise<string[]>,
 *   count(): Promise<number>,
 *   isVisible(): Promise<boolean>,
 *   getAttribute(name: string): Promise<string | null>,
 *   boundingBox(): Promise<{ x: number, y: number, width: number, height: number } | null>,
 * }} Locator
 * @typedef {{
 *   locator(selector: string, options?: { hasText?: string | RegExp }): Locator,
 *   getByText(text: string | RegExp, options?: { exact?: boolean }): Locator,
 *   getByRole(role: string, options?: { name?: string | RegExp, exact?: boolean }): Locator,
 *   keyboard: { press(key: string): Promise<void>, type(text: string, options?: { delay?: number }): Promise<void> },
 *   mouse: { move(x: number, y: number, options?: { steps?: number }): Promise<void>, down(): Promise<void>, up(): Promise<void> },
 *   screenshot(options?: { path?: string }): Promise<Buffer>,
 *   setViewportSize(size: { width: number, height: number }): Promise<void>,
 *   title(): Promise<string>,
 *   goto(url: string, options?: { waitUntil?: string, timeout?: number }): Promise<unknown>,
 *   waitForSelector(selector: string, options?: { state?: string, timeout?: number }): Promise<unknown>,
 *   waitForFunction<A>(fn: (arg: A) => unknown, arg: A, options?: { timeout?: number }): Promise<unknown>,
 *   evaluate<R>(fn: () => R | Promise<R>): Promise<R>,
 *   on(event: 'console', listener: (message: { type(): string, text(): string }) => void): void,
 *   on(event: 'pageerror', listener: (error: Error) => void): void,
 *   on(event: 'close', listener: () => void): void,
 * }} Page
 * @typedef {{ newContext(options?: object): Promise<{ newPage(): Promise<Page> }>, close(): Promise<void> }} Browser
 * @typedef {{ page: Page, workspace: string, screenshotDir: string, screenshot(name: string): Promise<Buffer> }} PageCheckContext
 *   What each page check (an exported function of test/host/ui/*.mjs) gets.
 */

/**
 * Runs a command by its palette label (F1).
 * @param {Page} page
 * @param {string} label
 */
export async function runCommand(page, label) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10_000 });
  await input.fill(`>${label}`);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  // The palette closes when the command starts: the next key must not land in it.
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
}

/**
 * Opens the Toolshed view container from the activity bar (left as it is when already open: a
 * click would close it). The click goes to the activity bar item, not its link: while the icon
 * carries a badge (e.g. "1 invalid skill to fix"), the badge covers the link's centre.
 * @param {Page} page
 */
export async function openToolshedSidebar(page) {
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  const icon = page.locator('.activitybar .action-item:has(a[aria-label^="Toolshed"]), .activitybar .action-item[aria-label^="Toolshed"]').first();
  await icon.waitFor({ timeout: 30_000 });
  const directory = page.locator('.part.sidebar .pane-header', { hasText: /Skill Directory/i }).first();
  if (!(await directory.count())) await icon.click();
  await directory.waitFor({ timeout: 30_000 });
}

/**
 * Gives the chat input keyboard focus and waits until it has it: keys typed before that (on a
 * slow first start) would go to whatever had focus.
 * @param {Page} page
 */
export async function focusChatInput(page) {
  const input = page.locator('.interactive-input-part').first();
  await input.waitFor({ timeout: 30_000 });
  await input.locator('.monaco-editor').first().click();
  await page.waitForFunction(() => Boolean(document.activeElement?.closest('.interactive-input-part')), null, { timeout: 30_000 });
}

/**
 * Waits until web fonts are loaded, so a screenshot does not catch fallback glyphs.
 * @param {Page} page
 */
export async function fontsReady(page) {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/**
 * A calmer workbench for screenshots: no panel, no secondary side bar, no notifications, a wider side bar.
 * @param {Page} page
 */
export async function tidy(page) {
  for (const label of ['View: Hide Panel', 'View: Hide Secondary Side Bar', 'Notifications: Clear All Notifications']) {
    await runCommand(page, label).catch(() => page.keyboard.press('Escape'));
  }
  const box = await page.locator('.part.sidebar').boundingBox();
  if (box && box.width < 500) {
    // Drag the sash on the side bar's right edge so descriptions (triggers) are readable.
    await page.mouse.move(box.x + box.width + 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 560, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
  }
}

/**
 * Scripts the test model with a driver command (e.g. "Toolshed Test: Script Weather Demo"), opens a
 * fresh chat and types `request` into it, as a person would. The chat input may hold text from an
 * earlier check, and "@toolshed" only routes to the participant at the very start, so it is cleared.
 * @param {Page} page
 * @param {{ script: string, request: string, hidePanel?: boolean, typingDelay?: number }} options
 */
export async function askInNewChat(page, { script, request, hidePanel = false, typingDelay = 10 }) {
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  await runCommand(page, script);
  if (hidePanel) await runCommand(page, 'View: Hide Panel').catch(() => page.keyboard.press('Escape'));
  await runCommand(page, 'Chat: Open Chat');
  await runCommand(page, 'Chat: New Chat').catch(() => page.keyboard.press('Escape'));
  await focusChatInput(page);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(request, { delay: typingDelay });
  await page.keyboard.press('Enter');
}

/**
 * Opens an answer's collapsed progress ("Completed N steps") and returns the answer's text once a
 * line matching `step` is in it. VS Code re-renders the steps folded when it finalises an answer,
 * so a click can land on a stale header or be undone by that re-render: each try first checks
 * whether the steps already show (a second click would fold them again), and the text is read again
 * until it holds a step. A click that is undone leaves nothing to wait on, so each try waits 5 s for
 * the step and tries again; STEPS_OPEN_MS bounds a host where they never open, not a slow one.
 * @param {Locator} response one `.interactive-response`
 * @param {RegExp} step a line only the expanded steps show
 */
export async function readWithStepsOpen(response, step) {
  const line = response.getByText(step).first();
  const deadline = Date.now() + STEPS_OPEN_MS;
  for (;;) {
    if (!(await line.isVisible())) {
      await response
        .getByText(/Completed \d+ steps?/)
        .first()
        .click()
        .catch(() => undefined);
      await line.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
    }
    const text = await response.innerText();
    if (step.test(text) || Date.now() > deadline) return text;
  }
}

/** How long readWithStepsOpen keeps trying to open an answer's steps. */
const STEPS_OPEN_MS = 60_000;
