import type { EmbeddingsConfig } from '../../config/settingsSchema';
import { cosine } from '../../search/embedding/embedder';
import { endpointEmbedderFromSettings } from './embedderChoice';

/**
 * Test Embedding Endpoint: embeds two short texts through the endpoint the settings name, with
 * the client search uses and under the same trust rule, and says what came back (latency,
 * dimensions, how alike the two texts are) or exactly what failed.
 */

/** Two texts of one meaning with few shared words: a working model puts them close. */
export const ENDPOINT_CHECK_TEXTS: readonly [string, string] = ['Convert euros to Canadian dollars', 'currency exchange rate calculator'];

export type EndpointCheckReport =
  | { ok: true; endpoint: string; model: string; latencyMs: number; dimensions: number; cosine: number; inUse: boolean }
  | { ok: false; endpoint: string; model: string; reason: string; inUse: boolean };

export async function checkEmbeddingEndpointLive(
  config: EmbeddingsConfig,
  workspaceTrusted: boolean,
  now: () => number = () => performance.now(),
): Promise<EndpointCheckReport> {
  const base = { endpoint: shownUrl(config.endpointUrl), model: config.endpointModel, inUse: config.embedder === 'endpoint' };
  const client = endpointEmbedderFromSettings(config, workspaceTrusted);
  if (!client.ok) return { ...base, ok: false, reason: client.reason };
  const started = now();
  try {
    const [a, b] = await client.embedder.embed(ENDPOINT_CHECK_TEXTS);
    return { ...base, ok: true, latencyMs: Math.max(0, now() - started), dimensions: a.length, cosine: cosine(a, b) };
  } catch (error) {
    return { ...base, ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** One line for a notification and the log. */
export function describeEndpointCheck(report: EndpointCheckReport): string {
  const what = `${report.endpoint} (model ${report.model})`;
  const use = report.inUse ? '' : ' toolshed.embeddings.embedder is not "endpoint", so search does not use it yet.';
  if (!report.ok) return `Embedding endpoint ${what} failed: ${report.reason}.${use}`;
  return (
    `Embedding endpoint ${what} works: ${Math.round(report.latencyMs)} ms for 2 texts, ${report.dimensions} dimensions, ` +
    `cosine of "${ENDPOINT_CHECK_TEXTS[0]}" and "${ENDPOINT_CHECK_TEXTS[1]}" ${report.cosine.toFixed(3)}.${use}`
  );
}

/** The URL without its query or fragment, which may carry a key. */
function shownUrl(raw: string): string {
  try {
    const url = new URL(raw.trim());
    return `${url.origin}${url.pathname}${url.search || url.hash ? ' (query hidden)' : ''}`;
  } catch {
    return JSON.stringify(raw);
  }
}
