import { sessionSnapshotSchema } from './toolActivation';
import type { ActivationRecord, SessionRegistry, SessionSnapshot } from './toolActivation';
import type { ToolRecord } from './toolRecord';

/**
 * Session activations across chat requests: listed for the sidebar, exported into a chat
 * result's metadata and restored from it. Only tools still in the registry are listed or
 * exported; a restored activation is still checked against visibility on every later read.
 */

export interface SessionActivation extends ActivationRecord {
  sessionId: string;
}

/** Every session's activations (tools still registered), most recent first. */
export function listSessionActivations(sessions: SessionRegistry, registry: ReadonlyMap<string, ToolRecord>): SessionActivation[] {
  return sessions
    .ids()
    .flatMap((id) =>
      sessions
        .get(id)
        .activations.list()
        .map((a) => ({ ...a, sessionId: id })),
    )
    .filter((a) => registry.has(a.toolName))
    .sort((a, b) => b.activatedAt - a.activatedAt || (a.toolName < b.toolName ? -1 : 1));
}

/** The JSON of one session's activations (tools still registered). */
export function exportSessionSnapshot(sessions: SessionRegistry, registry: ReadonlyMap<string, ToolRecord>, sessionId: string): SessionSnapshot {
  const state = sessions.peek(sessionId);
  return {
    version: 1,
    sessionId,
    activations: (state?.activations.list() ?? [])
      .filter((a) => registry.has(a.toolName))
      .map(({ toolName, source, reason, activatedAt, calls }) => ({ toolName, source, reason, activatedAt, calls })),
  };
}

/** Restores a validated snapshot under the session's lock; returns how many activations were new. */
export async function importSessionSnapshot(sessions: SessionRegistry, snapshot: unknown, invalid: (message: string) => Error): Promise<number> {
  const parsed = sessionSnapshotSchema.safeParse(snapshot);
  if (!parsed.success) throw invalid(`Not a Toolshed session snapshot: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const session = sessions.get(parsed.data.sessionId);
  const release = await session.lock.acquire();
  try {
    let added = 0;
    for (const a of parsed.data.activations) {
      if (session.activations.add({ ...a, scope: 'session' })) added++;
    }
    return added;
  } finally {
    release();
  }
}
