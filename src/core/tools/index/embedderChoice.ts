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

export function embedderFromSettings(config: EmbeddingsConfig, workspaceTrusted: boolean, logger: Logger): Embedder | undefined {
  if (config.embedder === 'off') return undefined;
  if (config.embedder === 'bundled') {
    if (bundled === null) bundled = loadBundledEmbedder();
    if (!bundled) logger.warn('toolshed.embeddings.embedder is "bundled" but word-vectors.bin is missing from the extension; search stays lexical.');
    return bundled;
  }
  const endpoint = endpointEmbedderFromSettings(config, workspaceTrusted);
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
    }),
  };
}
