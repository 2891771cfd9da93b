// @ts-check
// Generates the JSON Schemas of the skill file formats from the one zod schema
// (src/core/skills/skillSchema.ts) into dist/schemas/, at build time. package.json contributes
// dist/schemas/skill.schema.json through jsonValidation (*.skill.json) and yamlValidation
// (*.skill.yaml|yml); .vscodeignore ships dist/schemas/**.
// Called by esbuild.mjs; also runnable alone: node scripts/build-schemas.mjs
import * as esbuild from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles the schema module in memory and evaluates it (the TypeScript source is the truth). */
async function loadSchemaModule() {
  const result = await esbuild.build({
    stdin: {
      contents: "export { skillFileJsonSchema, agentSkillFrontmatterJsonSchema } from './src/core/skills/skillSchema';",
      resolveDir: REPO_ROOT,
      loader: 'ts',
      sourcefile: 'build-schemas-entry.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  const filename = path.join(REPO_ROOT, 'build-schemas-entry.cjs');
  // Node's own loader steps (not in its public types): module paths from a folder, compiling source.
  const mod = /** @type {Module & { _compile(code: string, file: string): void }} */ (new Module(filename));
  mod.filename = filename;
  mod.paths = /** @type {typeof Module & { _nodeModulePaths(dir: string): string[] }} */ (Module)._nodeModulePaths(REPO_ROOT);
  mod._compile(result.outputFiles[0].text, filename);
  return mod.exports;
}

export async function buildSchemas({ outDir = path.join(REPO_ROOT, 'dist', 'schemas'), log = console.log } = {}) {
  const { skillFileJsonSchema, agentSkillFrontmatterJsonSchema } = await loadSchemaModule();
  mkdirSync(outDir, { recursive: true });
  const files = {
    'skill.schema.json': skillFileJsonSchema(),
    'agent-skill-frontmatter.schema.json': agentSkillFrontmatterJsonSchema(),
  };
  for (const [name, schema] of Object.entries(files)) {
    writeFileSync(path.join(outDir, name), JSON.stringify(schema, null, 2) + '\n');
  }
  log(`[schemas] wrote ${Object.keys(files).join(', ')} to ${path.relative(REPO_ROOT, outDir) || outDir}`);
  return Object.keys(files).map((name) => path.join(outDir, name));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildSchemas();
}
