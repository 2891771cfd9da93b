import { parseSkillDocument } from '../../core/skills/packs/document/skillDocumentParser';
import type { SkillDocumentValidator } from './skillDocumentValidator';

/** The document validator over the core parser: the same zod schema and rules the loader uses. */
export const coreSkillDocumentValidator: SkillDocumentValidator = (text, fileName) => {
  const result = parseSkillDocument(text, fileName);
  return {
    problems: result.problems,
    names: result.skills.filter((s) => !s.nameGenerated && s.nameSpan).map((s) => ({ name: s.name, span: s.nameSpan! })),
  };
};
