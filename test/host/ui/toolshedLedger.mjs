// @ts-check
// Page check: the Ledger view in the Toolshed sidebar shows the turns the suite asked @toolshed:
// the period's totals, servers with their tools and what each cost and gave back.
// Screenshot: test-results/screenshots/ledger.png. Page checks run in file-name order: this one
// comes after sidebar.mjs, whose checks need the Skill Directory as the workbench opened it.
import assert from 'node:assert/strict';
import { openToolshedSidebar, runCommand, tidy } from './lib/workbench.mjs';

const VIEWS = [/Skill Directory/i, /Activated Tools/i, /Ledger/i];

/** @param {import('./lib/workbench.mjs').PageCheckContext} context */
export async function ledgerViewShowsTheTurns({ page, screenshot }) {
  await openToolshedSidebar(page);
  await tidy(page);
  const sidebar = page.locator('.part.sidebar');
  const header = (/** @type {RegExp} */ name) => sidebar.locator('.pane-header', { hasText: name }).first();
  // The later page checks expect the side bar as it was: each view folded or open as now.
  const before = await Promise.all(VIEWS.map((name) => header(name).getAttribute('aria-expanded')));
  try {
    // Fold the other two views so the ledger has the side bar (a header click toggles its view).
    for (const name of VIEWS.slice(0, 2)) if ((await header(name).getAttribute('aria-expanded')) === 'true') await header(name).click();
    await runCommand(page, 'Toolshed: Ledger');
    const rows = sidebar.locator('.monaco-list-row');
    const summary = rows.filter({ hasText: /Last 7 days/ }).first();
    await summary.waitFor({ timeout: 30_000 });
    await rows
      .filter({ hasText: /tok · \d+ sent · \d+ calls?/ })
      .first()
      .waitFor({ timeout: 30_000 });
    const totals = await summary.innerText();
    assert.match(totals, /\d+ turns? · \d+ rounds? · \d+ model requests? · [\d,]+ tokens of tool definitions/, totals);
    const title = await header(/Ledger/i).innerText();
    assert.match(title, /last 7 days · by definition tokens/i, title);
    await screenshot('ledger');
  } finally {
    for (const [i, name] of VIEWS.entries()) {
      const now = await header(name).getAttribute('aria-expanded');
      if (now !== before[i]) await header(name).click();
    }
  }
}
