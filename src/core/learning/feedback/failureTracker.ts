import { failureSignature } from './failureSignature';
import { inferTaskType, keywords } from '../extraction/learnedCandidate';
import type { LearnedCandidate } from '../extraction/learnedCandidate';
import type { LearningStore, Proposal } from '../learningStore';
import { MIN_TURNS, negativeCandidate } from './negativeLessons';
import { stepOf } from '../extraction/traceExtractor';
import type { Trajectory } from '../extraction/trajectory';

/**
 * Counts each failure signature of a (sanitized) turn once; a signature seen in at least
 * `MIN_TURNS` separate turns proposes its negative lesson (the same lesson again increments it).
 * What worked instead — the next successful call of another tool — is kept as the recovery.
 */
export function recordTurnFailures(store: LearningStore, trajectory: Trajectory, propose: (candidate: LearnedCandidate) => Proposal): Proposal | undefined {
  const turnId = `${trajectory.sessionId}:${trajectory.at}`;
  let negative: Proposal | undefined;
  const words = keywords(trajectory.request, 6);
  const seen = new Set<string>();
  trajectory.calls.forEach((call, i) => {
    if (call.ok) return;
    const signature = failureSignature(call.tool, call.error ?? 'failed');
    if (seen.has(signature.key)) return;
    seen.add(signature.key);
    const recoveryCall = trajectory.calls.slice(i + 1).find((later) => later.ok && later.tool !== call.tool);
    const record = store.recordFailure(
      {
        key: signature.key,
        tool: signature.tool,
        error_class: signature.errorClass,
        message: signature.message,
        last_turn: '',
        keywords: words,
        recovery: recoveryCall ? stepOf(recoveryCall) : '',
      },
      turnId,
    );
    if (record.turns >= MIN_TURNS) {
      negative = propose(
        negativeCandidate({
          signature,
          keywords: record.keywords,
          recovery: record.recovery || undefined,
          taskType: inferTaskType([call.tool], record.keywords.join(' ')),
        }),
      );
    }
  });
  return negative;
}
