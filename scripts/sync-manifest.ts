/**
 * Regenerates `contributes.configuration` in package.json from the one settings schema
 * (src/core/config/settingsSchema.ts), the tools' input schemas from their zod schemas and
 * `activationEvents` from the table of skill-file formats, so none of them is written twice. Run: `npx tsx scripts/sync-manifest.ts` (add `--check` to only verify;
 * a unit test does that, so drift fails the build).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildConfigurationContribution } from '../src/core/config/manifestConfiguration';
import { contributedToolInputSchemas } from '../src/core/lmTools/contributedToolSchemas';
import { workspaceActivationEvents } from '../src/core/lmTools/activationEvents';

const packagePath = path.join(__dirname, '..', 'package.json');
const pkg = JSON.parse(readFileSync(packagePath, 'utf8'));
const generated = buildConfigurationContribution();
const schemas = contributedToolInputSchemas();
const tools = (pkg.contributes.languageModelTools as Array<{ name: string; inputSchema: unknown }>).map((tool) => ({
  ...tool,
  inputSchema: schemas[tool.name] ?? tool.inputSchema,
}));
const activationEvents = workspaceActivationEvents();
const check = process.argv.includes('--check');
const same =
  JSON.stringify(pkg.contributes.configuration) === JSON.stringify(generated) &&
  JSON.stringify(pkg.contributes.languageModelTools) === JSON.stringify(tools) &&
  JSON.stringify(pkg.activationEvents) === JSON.stringify(activationEvents);
if (check) {
  if (!same) {
    console.error('package.json contributes.configuration/languageModelTools or activationEvents is out of date: run `npx tsx scripts/sync-manifest.ts`.');
    process.exit(1);
  }
  console.log('contributes.configuration, languageModelTools and activationEvents are up to date');
} else {
  pkg.activationEvents = activationEvents;
  pkg.contributes.configuration = generated;
  pkg.contributes.languageModelTools = tools;
  writeFileSync(packagePath, JSON.stringify(pkg, null, 2) + '\n');
  console.log(same ? 'no change' : 'package.json updated');
}
