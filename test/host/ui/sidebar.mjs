// @ts-check
// Page checks: the Toolshed sidebar lists skills on the page, and a skill file with
// a problem shows its diagnostic. Screenshots: test-results/screenshots/sidebar.png,
// test-results/screenshots/skill-diagnostic.png.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openToolshedSidebar, tidy } from './lib/workbench.mjs';

/** @param {import('./lib/workbench.mjs').PageCheckContext} context */
export async function sidebarListsSkills({ page, screenshot }) {
  await openToolshedSidebar(page);
  await tidy(page);
  const sidebar = page.locator('.part.sidebar');
  const rows = sidebar.locator('.monaco-list-row');
  // The built-in pack is long: collapse everything, then open the workspace's agent-skills pack.
  await sidebar
    .locator('.pane-header', { hasText: /Skill Directory/i })
    .first()
    .hover();
  await sidebar.locator('.pane-header .action-label[aria-label*="Collapse All"]').first().click({ timeout: 10_000 });
  await rows.filter({ hasText: /^core/ }).first().waitFor({ timeout: 30_000 });
  const workspacePack = rows.filter({ hasText: /^ws-.*github/ }).first();
  await workspacePack.waitFor({ timeout: 30_000 });
  await workspacePack.click();
  for (const label of ['Fix lint and type errors', 'release-notes', 'triage-issue']) {
    await rows.filter({ hasText: label }).first().waitFor({ timeout: 30_000 });
  }
  const texts = await rows.allInnerTexts();
  assert.ok(
    texts.some((text) => text.includes('Fix lint and type errors') && text.includes('fix-lint')),
    `a row shows title and name: ${texts.join(' | ')}`,
  );
  assert.ok(
    texts.some((text) => /^core/.test(text) && /built-in/.test(text)),
    `the built-in pack is listed: ${texts.join(' | ')}`,
  );
  const description = await sidebar
    .locator('.pane-header', { hasText: /Skill Directory/i })
    .first()
    .innerText();
  assert.match(description, /\d+ skills?/i, `the view header carries the count: ${description}`);
  await screenshot('sidebar');
}

/** @param {import('./lib/workbench.mjs').PageCheckContext} context */
export async function skillFileShowsDiagnostic({ page, workspace, screenshot }) {
  await openToolshedSidebar(page);
  const dir = path.join(workspace, '.github', 'skills');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'needs-a-trigger.skill.md');
  writeFileSync(
    file,
    '---\nname: needs-a-trigger\ntitle: Needs a trigger\ntask_type: code\nsteps:\n  - Do the thing.\n---\n\nThis skill has no trigger yet: hover the squiggle, or press Ctrl+. for the quick fix.\n',
  );
  // Quick Open (F1, then drop the ">" to search files).
  await page
    .locator('.monaco-workbench')
    .click({ position: { x: 700, y: 400 } })
    .catch(() => {});
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10_000 });
  await input.fill('needs-a-trigger.skill.md');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'needs-a-trigger.skill.md' }).first().waitFor({ timeout: 20_000 });
  await page.keyboard.press('Enter');
  await page.locator('.editor-instance .squiggly-error').first().waitFor({ timeout: 30_000 });
  // Hovering the squiggle shows what is wrong (and the screenshot shows it).
  await page.locator('.editor-instance .squiggly-error').first().hover({ force: true });
  await page
    .locator('.monaco-hover', { hasText: /trigger/i })
    .first()
    .waitFor();
  await screenshot('skill-diagnostic');
}
