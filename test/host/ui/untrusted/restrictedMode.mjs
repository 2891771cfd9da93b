// @ts-check
// Page check for the trust-on pass (workspace NOT trusted): the Toolshed sidebar says which
// workspace skill sources Restricted Mode does not use (the team pack from settings included),
// with a row that opens Manage Workspace Trust, and does
// not list the workspace pack. Screenshot: test-results/screenshots/restricted-mode.png.
import assert from 'node:assert/strict';
import { openToolshedSidebar, tidy } from '../lib/workbench.mjs';

/** @param {import('../lib/workbench.mjs').PageCheckContext} context */
export async function sidebarExplainsRestrictedMode({ page, screenshot }) {
  await openToolshedSidebar(page);
  await tidy(page);
  const sidebar = page.locator('.part.sidebar');
  const notice = sidebar
    .locator('.monaco-list-row', { hasText: /Restricted Mode: \d+ workspace skill files .* and the skill pack `team` from its settings not used/ })
    .first();
  await notice.waitFor({ timeout: 30_000 });
  const rows = await sidebar.locator('.monaco-list-row').allInnerTexts();
  assert.ok(!rows.some((text) => /^ws-/.test(text.trim())), `no workspace pack listed: ${rows.join(' | ')}`);
  assert.ok(!rows.some((text) => /triage-issue|release-notes/.test(text)), `no hidden skill listed: ${rows.join(' | ')}`);
  await screenshot('restricted-mode');
  // The row is the trust button: it opens VS Code's Workspace Trust editor.
  await notice.click();
  await page
    .locator('.workspace-trust-editor, .editor-instance', { hasText: /Restricted Mode|Workspace Trust|trust/i })
    .first()
    .waitFor({ timeout: 20_000 });
  await page.keyboard.press('Escape');
}
