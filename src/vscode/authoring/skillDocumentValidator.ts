import type { SkillProblem, Span } from '../../core/skills/packs/document/skillProblems';

/** Port: validates one skill document's text (`offThreadValidator.ts` calls the core parser, large texts on the parser thread). */
export interface ValidatedDocument {
  readonly problems: readonly SkillProblem[];
  /** Skills with a name written in the file (generated names are never duplicates of interest). */
  readonly names: ReadonlyArray<{ readonly name: string; readonly span: Span }>;
}

export type SkillDocumentValidator = (text: string, fileName: string) => ValidatedDocument | Promise<ValidatedDocument>;
