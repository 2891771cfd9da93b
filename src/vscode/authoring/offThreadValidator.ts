import type { ParseResult } from '../../core/skills/packs/document/skillDocumentParser';
import type { SkillDocumentParse } from '../../core/skills/packs/document/offThreadParser';
import type { SkillDocumentValidator, ValidatedDocument } from './skillDocumentValidator';

function validated(result: ParseResult): ValidatedDocument {
  return {
    problems: result.problems,
    names: result.skills.filter((s) => !s.nameGenerated && s.nameSpan).map((s) => ({ name: s.name, span: s.nameSpan! })),
  };
}

/**
 * The document validator over the core parser (the same zod schema and rules the loader uses),
 * large documents parsed off the extension host's thread: typing in a huge file never freezes the editor.
 */
export function offThreadSkillDocumentValidator(parse: SkillDocumentParse): SkillDocumentValidator {
  return async (text, fileName) => validated(await parse(text, fileName, {}));
}
