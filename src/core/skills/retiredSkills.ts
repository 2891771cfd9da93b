/**
 * Retired skills: the user took a skill out of use in this workspace (the Ledger view's Retire)
 * without deleting its files or its learned record, and can restore it. The names are kept in the
 * workspace's ledger; every request carries them (`SkillRequestContext.retiredNames`) and the
 * store's filter leaves them out of search, lists, the directory, pre-flight and selection.
 */

/** Why `skill_get` does not return a retired skill (the model cannot restore it; the user can). */
export function retiredSkillReason(): string {
  return 'retired in this workspace by the user (Restore it from the Toolshed: Ledger view)';
}
