import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const CORE = path.join(__dirname, '..', '..', '..', 'src', 'core');

function tsFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return tsFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** A runtime import of 'vscode' in core would make it untestable in plain Node and the CLI. */
const RUNTIME_VSCODE_IMPORT =
  /^\s*(import\s+(?!type\b)[^;]*from\s+['"]vscode['"]|import\s+['"]vscode['"]|.*\brequire\(\s*['"]vscode['"]\s*\)|export\s+(?!type\b)[^;]*from\s+['"]vscode['"])/m;

describe('architecture', () => {
  it('src/core has no runtime import of vscode', () => {
    const files = tsFiles(CORE);
    assert.ok(files.length > 3, 'expected core sources');
    const offenders = files.filter((file) => RUNTIME_VSCODE_IMPORT.test(readFileSync(file, 'utf8')));
    assert.deepEqual(
      offenders.map((f) => path.relative(CORE, f)),
      [],
    );
  });

  it('the detector itself catches the forms it must', () => {
    for (const bad of [`import * as vscode from 'vscode';`, `import { window } from "vscode";`, `const v = require('vscode');`, `import 'vscode';`]) {
      assert.ok(RUNTIME_VSCODE_IMPORT.test(bad), bad);
    }
    assert.ok(!RUNTIME_VSCODE_IMPORT.test(`import type * as vscode from 'vscode';`));
  });
});
