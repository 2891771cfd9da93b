// @ts-check
// Page check: "@toolshed" in the real Chat view finds a skill script with
// tool_search; VS Code's modal dialog shows exactly what will run; a person presses Cancel
// (nothing runs), then asks again and presses Run (the real script runs and the answer
// quotes its output). Screenshot: test-results/screenshots/skill-script-confirmation.png.
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { askInNewChat } from './lib/workbench.mjs';

/** @param {import('./lib/workbench.mjs').PageCheckContext} context */
export async function chatRunsASkillScriptOnlyAfterConfirmation({ page, screenshot, workspace }) {
  const sideEffect = path.join(workspace, 'line-counts.txt');
  rmSync(sideEffect, { force: true });
  try {
    await ask(page);
    const dialog = await confirmationDialog(page);
    const text = await dialog.innerText();
    assert.match(text, /Run scripts\/count_lines\.js of skill "count-lines"\?/);
    assert.match(text, /Interpreter: \/\S*node/);
    assert.match(text, /count-lines[\\/]scripts[\\/]count_lines\.js/);
    assert.match(text, /Arguments: --save README\.md/);
    assert.ok(text.includes(`Working directory: ${workspace}`), text);
    assert.match(text, /allowed-tools: Bash\(node:\*\) Read/);
    assert.doesNotMatch(text, /always/i, 'no "always allow"');
    await screenshot('skill-script-confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page
      .locator('.interactive-response', { hasText: /declined/ })
      .first()
      .waitFor({ timeout: 30_000 });
    assert.equal(existsSync(sideEffect), false, 'declined: the script did not run');

    await ask(page);
    await (await confirmationDialog(page)).getByRole('button', { name: 'Run', exact: true }).click();
    await page
      .locator('.interactive-response', { hasText: /README\.md: \d+ lines/ })
      .first()
      .waitFor({ timeout: 30_000 });
    assert.ok(existsSync(sideEffect), 'confirmed: the real script ran in the workspace folder');
  } finally {
    await page.keyboard.press('Escape');
    rmSync(sideEffect, { force: true });
  }
}

/** @param {import('./lib/workbench.mjs').Page} page */
async function ask(page) {
  await askInNewChat(page, { script: 'Toolshed Test: Script Count Lines Demo', request: '@toolshed How many lines does README.md have?' });
}

/** @param {import('./lib/workbench.mjs').Page} page */
async function confirmationDialog(page) {
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'count_lines.js' }).first();
  await dialog.waitFor({ timeout: 60_000 });
  return dialog;
}
