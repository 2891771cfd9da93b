import { redact } from '../../core/privacy/redaction';
import { loadBundledEmbedder } from '../../core/search/embedding/bundledEmbedder';
import type { Embedder } from '../../core/search/embedding/embedder';
import { EndpointEmbedder } from '../../core/search/embedding/endpointEmbedder';
import { checkEmbeddingEndpoint } from '../../core/trust/embeddingEndpoint';
import type { ParsedArgs } from './toolCliSupport';

/** `--embedder none|bundled|URL`: the same choice for every catalog the CLI searches or benches. */
export const EMBEDDER_USAGE = '[--embedder none|bundled|URL] [--embedder-model NAME] [--allow-remote-embedder]';
export const EMBEDDER_HELP = [
  '--embedder: hybrid ranking with the bundled word vectors (`bundled`), with a local embedding server',
  '  (an Ollama /api/embed or OpenAI-compatible /v1/embeddings URL; --embedder-model, default nomic-embed-text;',
  '  a non-loopback URL also needs --allow-remote-embedder), or lexical only (`none`, the default).',
];

export function embedderFromFlags(flags: ParsedArgs['flags']): Embedder | undefined {
  const value = flags.get('embedder');
  if (value === undefined || value === 'none') return undefined;
  if (value === true) throw new Error('--embedder needs none, bundled or a URL');
  if (value === 'bundled') {
    const bundled = loadBundledEmbedder();
    if (!bundled) throw new Error('the bundled word vectors (word-vectors.bin) were not found beside the CLI');
    return bundled;
  }
  const verdict = checkEmbeddingEndpoint(value, { allowRemote: flags.has('allow-remote-embedder'), workspaceTrusted: true });
  if (!verdict.ok) throw new Error(`--embedder: ${verdict.reason}`);
  const model = flags.get('embedder-model');
  return new EndpointEmbedder({
    url: verdict.url.href,
    model: typeof model === 'string' ? model : 'nomic-embed-text',
    scrub: (text) => redact(text),
    timeoutMs: 10_000,
  });
}
