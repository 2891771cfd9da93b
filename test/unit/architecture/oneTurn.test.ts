import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * One turn, one home: an @toolshed turn is assembled only by `runToolshedTurn`
 * (src/core/planner/turn/). The extension and every bench call it; nothing else may put a turn
 * together from its parts (the loop, skill pre-flight, the skill tools, deferral, the footer, the
 * ledger's envelope: the core set applied, the turn recorded, the core set learned) or spell its
 * own list of tools the loop hides, so a bench can never measure a copy of the turn.
 */

const ROOT = path.join(__dirname, '..', '..', '..');

/** The parts of a turn, by the module that exports them. */
const TURN_PARTS: Record<string, string[]> = {
  'src/core/planner/plannerLoop': ['runPlanner'],
  'src/core/planner/plannerSkills': ['plannerSkillsFrom'],
  'src/core/planner/preflightOptions': ['preflightOptionsFrom'],
  'src/core/planner/plannerSingleSkill': ['createSingleSkillTool', 'withSingleSkillTool'],
  'src/core/planner/plannerToolRun': ['plannerToolRunFrom'],
  'src/core/planner/responseFooter': ['responseFooter'],
  'src/core/tools/modes/deferralMeasure': ['applyModelDeferral'],
  'src/core/planner/coreSetTurn': ['applyCoreSet', 'updateCoreSet'],
  'src/core/planner/turnLedger': ['recordTurn'],
};

/**
 * Who may use them: the planner itself (the turn and the parts' own homes), deferral's own home,
 * and the extension's tool modes, which measure deferral with the request model's tokenizer for
 * the turn (its `decideDeferral`) and for `/tools`.
 */
const MAY_USE_PARTS = (file: string) =>
  file.startsWith('src/core/planner/') || file === 'src/core/tools/modes/deferralMeasure.ts' || file === 'src/vscode/tools/toolModes.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    if (statSync(path.join(ROOT, relative)).isDirectory()) return name === 'node_modules' || name === 'data' ? [] : filesUnder(relative);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [relative] : [];
  });
}

interface Use {
  file: string;
  what: string;
}

/** The turn parts a file imports, the `hiddenFromLoop` lists it spells, the deferrals it applies by hand. */
function turnAssemblyIn(file: string, text = readFileSync(path.join(ROOT, file), 'utf8')): Use[] {
  const uses: Use[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.startsWith('.')) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), node.moduleSpecifier.text));
      const parts = TURN_PARTS[target] ?? [];
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings) && !node.importClause?.isTypeOnly) {
        for (const element of bindings.elements) {
          const name = (element.propertyName ?? element.name).text;
          if (parts.includes(name) && !element.isTypeOnly) uses.push({ file, what: `imports ${name}` });
        }
      }
    }
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'hiddenFromLoop') uses.push({ file, what: 'spells hiddenFromLoop' });
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'applyDeferral')
      uses.push({ file, what: 'applies a deferral by hand' });
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return uses;
}

const SCANNED = [...filesUnder('src'), ...filesUnder('bench'), ...filesUnder('scripts')];

describe('architecture: one turn function for the extension and the benches', () => {
  it('scans the benches that run turns (the scan sees what it must)', () => {
    for (const file of [
      'bench/skillRelevanceEval.ts',
      'bench/sessionSimulation.ts',
      'src/cli/commands/benchTurnEconomy.ts',
      'src/cli/commands/benchToolModes.ts',
      'src/vscode/chat/plannerRequest.ts',
    ])
      assert.ok(SCANNED.includes(file), file);
  });

  it('no file outside the planner assembles a turn from its parts or spells the tools the loop hides', () => {
    const offenders = SCANNED.filter((file) => !MAY_USE_PARTS(file)).flatMap((file) => turnAssemblyIn(file));
    assert.deepEqual(
      offenders.map((use) => `${use.file}: ${use.what}`),
      [],
      'call runToolshedTurn (src/core/planner/turn/toolshedTurn.ts), or skillPreflight for pre-flight alone',
    );
  });

  it('the extension and the turn-economy and tool-modes benches call runToolshedTurn', () => {
    for (const file of ['src/vscode/chat/plannerRequest.ts', 'src/cli/commands/benchTurnEconomy.ts', 'src/cli/commands/benchToolModes.ts']) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      assert.match(text, /\brunToolshedTurn\(/, `${file} runs the turn through runToolshedTurn`);
    }
  });

  it('the extension and the session bench hand the turn their ledger: both run the envelope inside runToolshedTurn', () => {
    for (const file of ['src/vscode/chat/plannerRequest.ts', 'bench/sessionSimulation.ts']) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      const calls: ts.CallExpression[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'runToolshedTurn') calls.push(node);
        ts.forEachChild(node, visit);
      };
      visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
      assert.equal(calls.length, 1, `${file} runs one turn through runToolshedTurn`);
      const deps = calls[0]!.arguments[1];
      const passesLedger =
        deps !== undefined &&
        ts.isObjectLiteralExpression(deps) &&
        deps.properties.some(
          (property) => (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) && property.name.getText() === 'ledger',
        );
      assert.ok(passesLedger, `${file} passes its ledger to runToolshedTurn (the turn applies, records and learns)`);
    }
  });

  it('the check catches a bench that builds its own turn', () => {
    // The rule itself, on a file that does what the benches did before the turn had one home.
    const probe = 'bench/__probe__.ts';
    const text = [
      "import { runPlanner } from '../src/core/planner/plannerLoop';",
      "import { applyModelDeferral } from '../src/core/tools/modes/deferralMeasure';",
      "import { recordTurn } from '../src/core/planner/turnLedger';",
      'void runPlanner; void applyModelDeferral; void recordTurn;',
      "const options = { hiddenFromLoop: ['tool_invoke'] };",
      'run.applyDeferral(decision, new Set());',
    ].join('\n');
    const uses = turnAssemblyIn(probe, text);
    assert.deepEqual(
      uses.map((use) => use.what),
      ['imports runPlanner', 'imports applyModelDeferral', 'imports recordTurn', 'spells hiddenFromLoop', 'applies a deferral by hand'],
    );
  });
});
