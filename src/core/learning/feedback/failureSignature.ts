import { createHash } from 'node:crypto';
import { neutralizeBlockTags } from '../../privacy/promptBlocks';

/**
 * Failure signatures: tool + error class + normalised message. Normalising strips
 * what changes between two occurrences of the same failure (numbers, quoted values, ids, paths)
 * so "environment 'preview-17' is locked" and "environment 'preview-42' is locked" are one.
 */

export interface FailureSignature {
  /** Stable key: sha256 of the three parts (first 20 hex). */
  key: string;
  tool: string;
  errorClass: string;
  message: string;
}

const CLASSES: ReadonlyArray<readonly [string, RegExp]> = [
  ['timeout', /\btime(?:d)?[ -]?out\b|\bETIMEDOUT\b|deadline exceeded/i],
  ['not_found', /\bnot found\b|\bENOENT\b|\b404\b|does not exist|no such/i],
  ['permission', /\bpermission\b|\bforbidden\b|\bunauthori[sz]ed\b|\bEACCES\b|\b40[13]\b|access denied/i],
  ['conflict', /\blocked\b|\bconflict\b|\balready exists\b|\b409\b|\bin use\b|\bbusy\b/i],
  ['rate_limit', /rate limit|too many requests|\b429\b|quota/i],
  ['network', /ECONNREFUSED|ECONNRESET|ENOTFOUND|network|connection (?:refused|reset)|unreachable/i],
  ['invalid_input', /\binvalid\b|\brequired\b|\bmissing\b|\bmalformed\b|\bschema\b|\bexpected\b|\b400\b/i],
];

export function errorClassOf(message: string): string {
  for (const [name, pattern] of CLASSES) if (pattern.test(message)) return name;
  return 'error';
}

/** Lower-cased, values stripped, whitespace collapsed, prompt-block tags made inert, at most 160 characters. */
export function normalizeErrorMessage(message: string): string {
  return neutralizeBlockTags(
    message
      .replace(/^Tool "[^"]*" failed:\s*/i, '')
      .replace(/(["'`])(?:(?!\1).){0,200}\1/g, '<value>')
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>')
      .replace(/(?:[A-Za-z]:)?(?:[\\/][\w.@%+=-]+){2,}/g, '<path>')
      .replace(/\b[0-9a-f]{8,}\b/gi, '<id>')
      .replace(/\d+/g, '<n>')
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase()
      .slice(0, 160),
  );
}

export function failureSignature(tool: string, error: string): FailureSignature {
  const message = normalizeErrorMessage(error);
  const errorClass = errorClassOf(error);
  const key = createHash('sha256').update(`${tool}\u0000${errorClass}\u0000${message}`).digest('hex').slice(0, 20);
  return { key, tool, errorClass, message };
}
