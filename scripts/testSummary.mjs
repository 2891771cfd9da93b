// The closing summary of `npm test`: counts summed over all layers, and the name of every
// failing test, so a user can tell what broke without scrolling back through each layer's output.

/** How many names the final line itself carries; all of them are listed just above it. */
const NAMES_ON_SUMMARY_LINE = 5;

/** @typedef {{ layer: string, passed: number, failed: number, failedTitles?: string[] }} LayerResult */

/**
 * `layers`: [{ layer, passed, failed, failedTitles }] in run order. Returns the lines to print:
 * one `✗ layer: title` per failing test, then `N passed, M failed` naming the failures (and how
 * many failures have no name, e.g. a crashed layer).
 * @param {LayerResult[]} layers
 * @returns {string[]}
 */
export function summaryLines(layers) {
  const passed = layers.reduce((sum, layer) => sum + layer.passed, 0);
  const failed = layers.reduce((sum, layer) => sum + layer.failed, 0);
  const names = layers.flatMap((layer) => (layer.failedTitles ?? []).map((title) => `${layer.layer}: ${title}`));
  if (failed === 0) return [`${passed} passed, 0 failed`];
  const unnamed = failed - names.length;
  const lines = names.length ? ['Failed:', ...names.map((name) => `  ✗ ${name}`)] : [];
  const shown = names.slice(0, NAMES_ON_SUMMARY_LINE);
  const more = names.length - shown.length;
  const parts = [
    ...shown,
    ...(more > 0 ? [`${more} more listed above`] : []),
    ...(unnamed > 0 ? [`${unnamed} without a test name (see that layer's output)`] : []),
  ];
  lines.push(`${passed} passed, ${failed} failed — ${parts.join('; ')}`);
  return lines;
}

/**
 * Titles of the failed entries of a `{ state, fullTitle }` list, each prefixed with `where › `.
 * @param {Array<{ state: string, fullTitle: string }>} tests
 * @param {string} where
 * @returns {string[]}
 */
export function failedTitles(tests, where) {
  return tests.filter((test) => test.state === 'failed').map((test) => `${where} › ${test.fullTitle}`);
}
