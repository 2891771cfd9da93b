import * as YAML from 'yaml';
import type { BoundedProblems, SpanSource } from './boundedProblems';
import { firstLine, isPlainObject, messageOf, startOf } from './documentValues';
import type { LineIndex } from './lineIndex';
import { PROBLEM_CODES } from './skillProblems';
import type { ProblemCode, ProblemSeverity, Span } from './skillProblems';
import { midLineCommentProblems } from './yamlMidLineComment';
import { yamlLeniencyProblems } from './yamlLeniency';
import { duplicateKeyNodes, PairLookup, unstorableValue } from './yamlStructure';

export type AnyNode = YAML.Node | null | undefined;

/** A parsed mapping with a way to locate its keys and values in the file. */
export interface Located {
  value: unknown;
  root: AnyNode;
  /** Offset of `root` source text within the file. */
  base: number;
  /** Where to point problems about missing keys. */
  anchor: Span;
  index: LineIndex;
}

/**
 * YAML (and JSON, read as YAML for exact positions) into `Located` values, and paths inside them
 * back to spans in the file — the position half of the skill document parser. Parse problems go
 * to the parser's bounded problem list.
 */
export class YamlLocator {
  private readonly pairs = new PairLookup();

  constructor(
    private readonly index: LineIndex,
    private readonly file: string,
    private readonly out: BoundedProblems,
  ) {}

  parseSource(source: string, base: number, anchor: Span): Located | undefined {
    let doc: YAML.Document.Parsed;
    try {
      doc = YAML.parseDocument(source, { prettyErrors: false, uniqueKeys: false, logLevel: 'error' });
    } catch (error) {
      this.problem(anchor, 'error', PROBLEM_CODES.parseError, `YAML could not be read: ${messageOf(error)}`);
      return undefined;
    }
    return this.fromDocument(doc, base, anchor);
  }

  fromDocument(doc: YAML.Document.Parsed, base: number, anchor: Span): Located | undefined {
    if (doc.errors.length > 0) {
      for (const error of doc.errors.slice(0, 20)) {
        const [from, to] = error.pos;
        this.problem(
          () => this.index.span(base + from, base + Math.max(to, from + 1)),
          'error',
          PROBLEM_CODES.parseError,
          `Syntax error: ${firstLine(error.message)}`,
        );
      }
      return undefined;
    }
    // Our own duplicate-key check: linear, unlike the parser's `uniqueKeys` (see yamlStructure).
    const duplicates = duplicateKeyNodes(doc);
    if (duplicates.length > 0) {
      for (const key of duplicates) {
        const range = key.range ?? [0, 1];
        this.problem(
          () => this.index.span(base + range[0], base + Math.max(range[1], range[0] + 1)),
          'error',
          PROBLEM_CODES.duplicateKey,
          'Duplicate key: each field may appear once.',
        );
      }
      return undefined;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 50 });
    } catch (error) {
      this.problem(anchor, 'error', PROBLEM_CODES.parseError, `YAML could not be read: ${messageOf(error)}`);
      return undefined;
    }
    const unstorable = unstorableValue(value);
    if (unstorable) {
      this.problem(anchor, 'error', PROBLEM_CODES.parseError, `This document cannot be loaded: ${unstorable}. Replace the alias with the value itself.`);
      return undefined;
    }
    for (const problem of midLineCommentProblems(doc, base, this.index, this.file)) this.out.addBuilt(problem);
    for (const problem of yamlLeniencyProblems(doc, base, this.index, this.file)) this.out.addBuilt(problem);
    return { value, root: doc.contents as AnyNode, base, anchor, index: this.index };
  }

  collectEntries(located: Located, into: Array<{ located: Located; node: AnyNode }>): void {
    if (located.value === null || located.value === undefined) return;
    if (Array.isArray(located.value) && (YAML.isSeq(located.root) || located.root === undefined)) {
      const items = YAML.isSeq(located.root) ? located.root.items : [];
      located.value.forEach((item, i) => {
        const node = items[i] as AnyNode;
        const span = this.nodeSpan(located, node) ?? located.anchor;
        if (!isPlainObject(item)) {
          this.problem(span, 'error', PROBLEM_CODES.notAMapping, `Entry ${i + 1} must be a mapping of skill fields.`);
          return;
        }
        into.push({ located: { ...located, value: item, root: node, anchor: startOf(span) }, node });
      });
      return;
    }
    if (!isPlainObject(located.value)) {
      this.problem(
        this.nodeSpan(located, located.root) ?? located.anchor,
        'error',
        PROBLEM_CODES.notAMapping,
        'A skill file holds a mapping of skill fields (or a list of them).',
      );
      return;
    }
    const span = this.nodeSpan(located, located.root);
    into.push({ located: { ...located, anchor: span ? startOf(span) : located.anchor }, node: located.root });
  }

  nodeSpan(located: Located, node: AnyNode): Span | undefined {
    const range = node?.range;
    if (!range) return undefined;
    return located.index.span(located.base + range[0], located.base + range[1]);
  }

  /** The value at `path` as written in the file (its source text), when it is known. */
  sourceOf(located: Located, path: readonly PropertyKey[]): string | undefined {
    const range = this.locate(located, path).value?.range;
    return range ? located.index.text.slice(located.base + range[0], located.base + range[1]) : undefined;
  }

  /** The pair (key node, value node) of a path inside `root`. */
  private locate(located: Located, path: readonly PropertyKey[]): { key?: AnyNode; value?: AnyNode; parentKey?: AnyNode } {
    let node: AnyNode = located.root;
    let key: AnyNode;
    let parentKey: AnyNode;
    for (const segment of path) {
      if (YAML.isMap(node)) {
        const pair = this.pairs.pair(node, String(segment));
        if (!pair) return { parentKey: key };
        parentKey = key;
        key = pair.key as AnyNode;
        node = pair.value as AnyNode;
      } else if (YAML.isSeq(node) && typeof segment === 'number') {
        parentKey = key;
        node = node.items[segment] as AnyNode;
        key = undefined;
        if (!node) return { parentKey };
      } else {
        return { parentKey: key };
      }
    }
    return { key, value: node, parentKey };
  }

  spanOfPath(located: Located, path: readonly PropertyKey[], prefer: 'key' | 'value' = 'value'): Span {
    const found = this.locate(located, path);
    const node = prefer === 'key' ? (found.key ?? found.value) : (found.value ?? found.key);
    return this.nodeSpan(located, node) ?? this.nodeSpan(located, found.parentKey) ?? located.anchor;
  }

  private problem(span: SpanSource, severity: ProblemSeverity, code: ProblemCode, message: string): void {
    this.out.add(span, severity, code, message);
  }
}
