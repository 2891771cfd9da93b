/**
 * The skills the runtime tests put in front of Toolshed: a few everyday playbooks, each with a
 * marker in its body so a test can tell whether the runtime's model request carries that
 * skill's own text (not only its name).
 */
import type { SkillFile } from './runtimeHarness';

export const RELEASE_NOTES: SkillFile = {
  name: 'release-notes',
  description: 'Write the release notes for a new version from the merged pull requests and the changelog',
  body: [
    '# Release notes',
    '',
    'MARKER-RELEASE-NOTES-BODY',
    '',
    '1. List the pull requests merged since the last release tag.',
    '2. Group them under Added, Changed, Fixed; one line each, user-facing words.',
    '3. Put breaking changes first, with the migration step.',
  ].join('\n'),
};

const POSTGRES_MIGRATION: SkillFile = {
  name: 'postgres-migration',
  description: 'Write and review a PostgreSQL schema migration safely: locks, backfills in batches, a rollback',
  body: ['# PostgreSQL migrations', '', 'MARKER-POSTGRES-MIGRATION-BODY', '', 'Add columns nullable first, backfill in batches, then add the constraint.'].join(
    '\n',
  ),
};

const KUBERNETES_DEPLOY: SkillFile = {
  name: 'kubernetes-deploy',
  description: 'Deploy a service to a Kubernetes cluster with a rolling update, readiness checks and a rollback plan',
  body: ['# Kubernetes deploy', '', 'MARKER-KUBERNETES-DEPLOY-BODY', '', 'kubectl rollout status, then watch the readiness probes.'].join('\n'),
};

export const TEAM_SKILLS: readonly SkillFile[] = [RELEASE_NOTES, POSTGRES_MIGRATION, KUBERNETES_DEPLOY];

export const MATCHING_PROMPT = 'Write the release notes for version 2.4.0 from the pull requests merged since the last release';
export const UNRELATED_PROMPT = 'What is the capital of Australia? Answer in one word.';
