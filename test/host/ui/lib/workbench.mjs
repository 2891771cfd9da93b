// Shared workbench actions for page checks (this folder is not scanned for checks).

/** Runs a command by its palette label (F1). */
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
 * Gives the chat input keyboard focus and waits until it has it: keys typed before that (on a
 * slow first start) would go to whatever had focus.
 */
export async function focusChatInput(page) {
  const input = page.locator('.interactive-input-part').first();
  await input.waitFor({ timeout: 30_000 });
  await input.locator('.monaco-editor').first().click();
  await page.waitForFunction(() => Boolean(document.activeElement?.closest('.interactive-input-part')), null, { timeout: 30_000 });
}

/** Waits until web fonts are loaded, so a screenshot does not catch fallback glyphs. */
export async function fontsReady(page) {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** A calmer workbench for screenshots: no panel, no secondary side bar, no notifications, a wider side bar. */
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
