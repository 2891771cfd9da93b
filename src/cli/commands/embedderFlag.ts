import { redact } from '../../core/privacy/redaction';
import { loadBundledEmbedder } from '../../core/search/embedding/bundledEmbedder';
import type { Embedder } from '../../core/search/embedding/embedder';
import { EndpointEmbedder } from '../../core/search/embedding/endpointEmbedder';
import { checkEmbeddingEndpoint, isLoopbackAddress } from '../../core/trust/embeddingEndpoint';
import { escapeForLine } from '../../core/platform/lineText';
import type { CliIo } from '../cliCommand';
import { UsageError } from './cliInput';
import type { ParsedArgs } from './toolCliSupport';

/** `--embedder none|bundled|URL`: the same choice for every catalog the CLI searches or benches. */
export const EMBEDDER_USAGE = '[--embedder none|bundled|URL] [--embedder-model NAME] [--embedder-timeout MS] [--allow-remote-embedder]';
export const EMBEDDER_HELP = [
  '--embedder: hybrid ranking with the bundled word vectors (`bundled`), with a local embedding server',
  '  (an Ollama /api/embed or OpenAI-compatible /v1/embeddings URL; --embedder-model, default nomic-embed-text;',
  '  a non-loopback URL also needs --allow-remote-embedder), or lexical only (`none`, the default).',
  '  Each request to the server ends after --embedder-timeout ms (default 10000, 100–600000); redirects are not',
  '  followed, a loopback name must resolve to this machine, and an answer larger than the batch needs is refused.',
  '  When the server fails, stderr says so once and search falls back to lexical ranking.',
];
/** The options the embedder flags add to a command: those taking a value, and the switch. */
export const EMBEDDER_VALUES = ['embedder', 'embedder-model', 'embedder-timeout'] as const;
export const EMBEDDER_SWITCHES = ['allow-remote-embedder'] as const;

const DEFAULT_TIMEOUT_MS = 10_000;

function timeoutFrom(value: string | true | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  const ms = Number(value);
  if (value === true || !Number.isInteger(ms) || ms < 100 || ms > 600_000)
    throw new UsageError('--embedder-timeout must be a whole number of milliseconds from 100 to 600000');
  return ms;
}

export function embedderFromFlags(flags: ParsedArgs['flags']): Embedder | undefined {
  const value = flags.get('embedder');
  if (value === undefined || value === 'none') return undefined;
  if (value === true) throw new UsageError('--embedder needs none, bundled or a URL');
  if (value === 'bundled') {
    const bundled = loadBundledEmbedder();
    if (!bundled) throw new Error('the bundled word vectors (word-vectors.bin) were not found beside the CLI');
    return bundled;
  }
  const verdict = checkEmbeddingEndpoint(value, { allowRemote: flags.has('allow-remote-embedder'), workspaceTrusted: true });
  if (!verdict.ok) throw new UsageError(`--embedder: ${verdict.reason}`);
  const model = flags.get('embedder-model');
  return new EndpointEmbedder({
    url: verdict.url.href,
    model: typeof model === 'string' ? model : 'nomic-embed-text',
    scrub: (text) => redact(text),
    timeoutMs: timeoutFrom(flags.get('embedder-timeout')),
    connectTo: verdict.loopbackOnly ? isLoopbackAddress : undefined,
  });
}

/** Why the endpoint failed during this command, or undefined (no endpoint, or it never failed). */
function endpointFailure(embedder: Embedder | undefined): string | undefined {
  return embedder instanceof EndpointEmbedder ? embedder.failure : undefined;
}

/** Says once, on stderr, that the endpoint failed and search fell back to lexical ranking. */
export function reportEndpointFailure(embedder: Embedder | undefined, io: CliIo): void {
  const failure = endpointFailure(embedder);
  if (failure) io.stderr(`toolshed: ${escapeForLine(failure)}; search fell back to lexical ranking.\n`);
}

/**
 * A bench row's `embedder`: the model's key, or "none" with `endpoint_failed` when the endpoint
 * failed during the run — lexical recall is never labelled with the endpoint's name.
 */
export function embedderLabel(embedder: Embedder | undefined): { embedder: string; endpoint_failed?: string } {
  const failure = endpointFailure(embedder);
  if (failure) return { embedder: 'none', endpoint_failed: failure };
  return { embedder: embedder ? embedder.key : 'none' };
}
