/**
 * What the running host test is waiting for. The suite's waits on state that has no event
 * (helpers.ts) poll with no deadline of their own — on a loaded machine things take long, and
 * the test's timeout is the guard — so the driver (runSuite.ts) names them in the timeout's
 * message and ends them when the test ends, so that a timed-out wait does not go on acting in
 * the next test. Kept on globalThis: the driver and each test file are separate bundles in one
 * extension host.
 */
export interface TestWait {
  /** What is awaited, as the timeout message should say it (may include the latest state seen). */
  describe(): string;
  ended: boolean;
  /** Called when the test ends with the wait pending (a wait on an event stops listening). */
  onEnd?(): void;
}

const KEY = Symbol.for('toolshed.hostTestWaits');

export function testWaits(): Set<TestWait> {
  const holder = globalThis as unknown as Record<symbol, Set<TestWait> | undefined>;
  return (holder[KEY] ??= new Set());
}

/** Called by the driver when a test ends: every wait it left is ended; returns what they awaited. */
export function endTestWaits(): string[] {
  const waits = [...testWaits()];
  for (const wait of waits) {
    wait.ended = true;
    wait.onEnd?.();
  }
  testWaits().clear();
  return waits.map((wait) => wait.describe());
}
