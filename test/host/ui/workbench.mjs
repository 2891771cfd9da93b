// @ts-check
// Page checks run by test/host/runOffline.mjs against the live workbench, after the in-host suite
// and before shutdown. Each exported async function is one test: it gets
// { page, workspace, screenshotDir, screenshot(name) } and fails by throwing.
import assert from 'node:assert/strict';
import path from 'node:path';

/** @param {import('./lib/workbench.mjs').PageCheckContext} context */
export async function workbenchShowsTheWorkspace({ page, workspace, screenshot }) {
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  const folder = path.basename(workspace);
  // The window title carries the folder name; the Explorer shows it as the root's header.
  await page.waitForFunction(
    /** @param {string} name */
    (name) => {
      const lower = name.toLowerCase();
      const explorer = document.querySelector('.part.sidebar')?.textContent ?? '';
      return document.title.toLowerCase().includes(lower) || explorer.toLowerCase().includes(lower);
    },
    folder,
    { timeout: 30_000 },
  );
  const title = await page.title();
  assert.ok(title.toLowerCase().includes(folder.toLowerCase()), `window title "${title}" names the folder "${folder}"`);
  await screenshot('workbench');
}
