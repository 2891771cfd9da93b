import * as assert from 'node:assert/strict';
import { checkEmbeddingEndpoint } from '../../../../src/core/trust/embeddingEndpoint';

describe('embedding endpoint trust rule', () => {
  const trusted = { allowRemote: false, workspaceTrusted: true };
  it('a loopback endpoint is used, in Restricted Mode too', () => {
    for (const url of [
      'http://127.0.0.1:11434/api/embed',
      'http://localhost:8080/v1/embeddings',
      'http://[::1]:11434/api/embed',
      'http://127.3.2.1/api/embed',
    ]) {
      assert.equal(checkEmbeddingEndpoint(url, { allowRemote: false, workspaceTrusted: false }).ok, true, url);
    }
  });
  it('a remote endpoint needs the explicit setting', () => {
    const refused = checkEmbeddingEndpoint('https://embed.example.com/v1/embeddings', trusted);
    assert.ok(!refused.ok && /allowRemoteEndpoint/.test(refused.reason));
    assert.equal(checkEmbeddingEndpoint('https://embed.example.com/v1/embeddings', { allowRemote: true, workspaceTrusted: true }).ok, true);
  });
  it('a remote endpoint is refused in Restricted Mode whatever the setting says', () => {
    const refused = checkEmbeddingEndpoint('https://embed.example.com/v1/embeddings', { allowRemote: true, workspaceTrusted: false });
    assert.ok(!refused.ok && /Restricted Mode/.test(refused.reason));
  });
  it('look-alike hosts, credentials and other schemes are refused', () => {
    for (const url of [
      'http://127.0.0.1.evil.example/api/embed',
      'http://localhost@evil.example/api/embed',
      'file:///etc/passwd',
      'not a url',
      'http://user:pw@127.0.0.1/api/embed',
    ]) {
      assert.equal(checkEmbeddingEndpoint(url, trusted).ok, false, url);
    }
  });
});
