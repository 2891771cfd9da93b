import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { explainTurnMarkdown } from '../../../src/core/planner/turn/explainMarkdown';
import type { TurnExplanation } from '../../../src/core/planner/turn/turnExplanation';

/**
 * `/why`, Explain Last Turn and `preflight --explain` render names and text that came from a model
 * (a tool call's name, the selection model's name and answer) or a pack (skill and tool names).
 * Rendered as Markdown, such text must stay one inert piece of its line: a blank line followed by
 * "# …" must not become a heading, and "[x](command:…)" or "<command:…>" must not become a link.
 */

/** An explanation where every name and text that can come from a model or a pack is `hostile`. */
function explanation(hostile: string): TurnExplanation {
  return {
    request: hostile,
    skills: {
      enabled: true,
      selection: 'hybrid',
      minRelevance: 0.25,
      relativeCut: 0.7,
      askModelBelowRelevance: 0.5,
      maxActive: 3,
      workspaceSkills: true,
      candidates: [
        { name: hostile, relevance: 0.5, injected: true, decision: 'injected (best match)' },
        { name: `${hostile}2`, relevance: 0.1, injected: false, decision: 'below toolshed.skills.minRelevance 0.25' },
      ],
      pinned: [{ name: hostile, decision: 'injected (pinned)' }],
      model: { asked: true, wouldAsk: true, name: hostile, chose: [hostile], fallback: hostile },
    },
    tools: {
      preActivateTools: 4,
      minRelevance: 0.2,
      relativeCut: 0.6,
      candidates: [{ name: hostile, relevance: 0.4, matchedTerms: [hostile, 'weather'], flagged: hostile, activated: false, decision: 'not activated' }],
      restricted: false,
      fromSkills: [hostile],
      hidden: [hostile],
    },
    rounds: [{ toolsSent: [hostile, 'tool_search'], definitionTokens: 10, calls: [{ name: hostile, outcome: 'ok' }] }],
    tokens: { promptBlocks: 1, injectedSkills: 1, selection: 0, toolDefinitions: 1, allToolDefinitions: 1 },
    stoppedBecause: 'done',
  };
}

/**
 * The text of a line outside code spans (where Markdown is interpreted), escaped characters
 * dropped, and whether every code span was closed. A backslash escapes the next character; a
 * backtick opens a code span up to the next backtick.
 */
function prose(line: string): { text: string; closed: boolean } {
  let text = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '\\') i++;
    else if (ch === '`') {
      const end = line.indexOf('`', i + 1);
      if (end < 0) return { text, closed: false };
      i = end;
    } else text += ch;
  }
  return { text, closed: true };
}

/** The shape of each line: how it starts (a heading, a list item, a numbered item, prose). */
function shape(markdown: string): string[] {
  return markdown.split('\n').map((line) => (line.match(/^(#+ |- |\d+\. |\*\*|)/)?.[0] ?? '') + (line.trim() === '' ? '<blank>' : ''));
}

const BENIGN = shape(explainTurnMarkdown(explanation('plain_name')));

function assertInert(hostile: string): void {
  const markdown = explainTurnMarkdown(explanation(hostile));
  assert.deepEqual(shape(markdown), BENIGN, `the line structure changed:\n${markdown}`);
  for (const line of markdown.split('\n')) {
    const { text, closed } = prose(line);
    assert.ok(closed, `a code span was broken open: ${line}`);
    // Toolshed's own text never uses these outside code spans: any here came from the hostile text unescaped.
    assert.ok(!/[[\]<>]/.test(text), `link or HTML syntax left unescaped: ${line}`);
  }
}

describe('Explain Last Turn markdown escapes names and text from models and packs', () => {
  it('a tool-call name with a blank line, a heading and a command link renders as one inert name', () => {
    assertInert('read_file\n\n# Toolshed approved this\n[Run it](command:toolshed.resetAll) <command:workbench.action.quit>');
    assertInert('evil`\n\n## fake`[x](command:a)');
  });

  it('any text in any place stays inert (fast-check)', () => {
    const pieces = fc.constantFrom(
      '\n',
      '\n\n',
      '\r\n',
      '\u2028',
      '# ',
      '## ',
      '- ',
      '1. ',
      '[',
      ']',
      '(',
      ')',
      '<',
      '>',
      '`',
      '``',
      '*',
      '_',
      '\\',
      '!',
      '|',
      'command:x',
      'https://e.x',
      'a',
      'é',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 16 }), (parts) => {
        assertInert(parts.join(''));
      }),
      { numRuns: 400 },
    );
  });
});
