// @ts-check
// Builds the demo-model example extension into examples/demo-model/out/: a bundle and a
// package.json whose `languageModelTools` are generated from src/demoToolCatalog.ts (VS Code
// needs every tool declared statically). Used by `npm start` and the demo page check.
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const DEMO_MODEL_OUT = path.join(HERE, 'out');

/** @typedef {{ name: string, server: string, description: string, inputSchema: object }} DemoTool */

/** @returns {Promise<DemoTool[]>} the tools of src/demoToolCatalog.ts */
async function loadCatalog() {
  const built = await esbuild.build({
    entryPoints: [path.join(HERE, 'src', 'demoToolCatalog.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  const module = { exports: /** @type {{ DEMO_TOOLS?: DemoTool[] }} */ ({}) };
  new Function('module', 'exports', built.outputFiles[0].text)(module, module.exports);
  return module.exports.DEMO_TOOLS ?? [];
}

export async function buildDemoModel() {
  rmSync(DEMO_MODEL_OUT, { recursive: true, force: true });
  mkdirSync(path.join(DEMO_MODEL_OUT, 'dist'), { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(HERE, 'src', 'extension.ts')],
    outfile: path.join(DEMO_MODEL_OUT, 'dist', 'extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const manifest = JSON.parse(readFileSync(path.join(HERE, 'package.json'), 'utf8'));
  manifest.contributes.languageModelTools = (await loadCatalog()).map((tool) => ({
    name: tool.name,
    displayName: `${tool.name.replace(/_/g, ' ')} (${tool.server}, demo)`,
    modelDescription: tool.description,
    inputSchema: tool.inputSchema,
  }));
  writeFileSync(path.join(DEMO_MODEL_OUT, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  return {
    folder: DEMO_MODEL_OUT,
    publisher: manifest.publisher,
    name: manifest.name,
    version: manifest.version,
    tools: manifest.contributes.languageModelTools.length,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await buildDemoModel();
  console.log(`demo model built into ${path.relative(process.cwd(), result.folder)} (${result.tools} tools)`);
}
