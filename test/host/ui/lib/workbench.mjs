// Shared workbench actions for page checks (this folder is not scanned for checks).

/** Runs a command by its palette label (F1). */
export async function runCommand(page, label) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10_000 });
  await input.fill(`>${label}`);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
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
