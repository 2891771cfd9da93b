import type { EmbeddingsConfig } from '../../config/settingsSchema';
import type { Logger } from '../../platform/ports';
import { redact } from '../../privacy/redaction';
import { loadBundledEmbedder } from '../../search/embedding/bundledEmbedder';
import type { BundledEmbedder } from '../../search/embedding/bundledEmbedder';
import type { Embedder } from '../../search/embedding/embedder';
import { EndpointEmbedder } from '../../search/embedding/endpointEmbedder';
import { checkEmbeddingEndpoint, isLoopbackAddress } from '../../trust/embeddingEndpoint';

/**
 * The embedder `toolshed.embeddings` asks for, under the workspace-trust rule of endpoints
 * (trust/embeddingEndpoint.ts); undefined = lexical ranking, with the reason logged. The
 * bundled vectors are read once per process.
 */
let bundled: BundledEmbedder | undefined | null = null;

/**
 * `onStatus` hears when the endpoint starts failing (what went wrong) and when it answers again
 * (undefined), once each; the log says the same, once per outage.
 */
export function embedderFromSettings(
  config: EmbeddingsConfig,
  workspaceTrusted: boolean,
  logger: Logger,
  onStatus?: (failure: string | undefined) => void,
): Embedder | undefined {
  if (config.embedder === 'off') return undefined;
  if (config.embedder === 'bundled') {
    if (bundled === null) bundled = loadBundledEmbedder();
    if (!bundled) logger.warn('toolshed.embeddings.embedder is "bundled" but word-vectors.bin is missing from the extension; search stays lexical.');
    return bundled;
  }
  // Only the host is logged: the URL's query may carry an API key.
  const host = URL.canParse(config.endpointUrl.trim()) ? new URL(config.endpointUrl.trim()).host : 'endpoint';
  const endpoint = endpointEmbedderFromSettings(config, workspaceTrusted, (failure) => {
    if (failure) logger.warn(`Embedding endpoint ${host} failed: ${failure}. Tool and skill search are lexical until it answers (tried again after 30 s).`);
    else logger.info(`Embedding endpoint ${host} answers again: hybrid ranking is back.`);
    onStatus?.(failure);
  });
  if (!endpoint.ok) {
    logger.warn(`toolshed.embeddings.endpointUrl not used: ${endpoint.reason}. Search stays lexical.`);
    return undefined;
  }
  return endpoint.embedder;
}

/**
 * The endpoint client the settings describe, or why it may not be used: the one construction
 * for the extension's search and for Test Embedding Endpoint, so the test asks what search asks.
 */
export function endpointEmbedderFromSettings(
  config: EmbeddingsConfig,
  workspaceTrusted: boolean,
  onStateChange?: (failure: string | undefined) => void,
): { ok: true; embedder: EndpointEmbedder } | { ok: false; reason: string } {
  const verdict = checkEmbeddingEndpoint(config.endpointUrl, { allowRemote: config.allowRemoteEndpoint, workspaceTrusted });
  if (!verdict.ok) return verdict;
  return {
    ok: true,
    embedder: new EndpointEmbedder({
      url: verdict.url.href,
      model: config.endpointModel,
      scrub: (text) => redact(text),
      timeoutMs: config.endpointTimeoutMs,
      connectTo: verdict.loopbackOnly ? isLoopbackAddress : undefined,
      onStateChange,
    }),
  };
}
