import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { buildApp, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, TIMEOUT_CHECK_MS } from '../../src/app.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** Header and request timeouts (docs/api.md): a client trickling its request is cut, not served forever. */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t?.close();
});

test('the documented defaults reach the HTTP server: headers within 30 s, checked each second, so a slow client is cut by 31 s', async () => {
  const app = await buildApp(t.runtime.deps, { logger: pino({ level: 'silent' }) });
  try {
    assert.equal(HEADERS_TIMEOUT_MS, 30_000);
    assert.equal(REQUEST_TIMEOUT_MS, 30_000);
    assert.equal(app.server.headersTimeout, 30_000);
    assert.equal(app.server.requestTimeout, 30_000);
    const interval = (app.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval;
    assert.equal(interval, TIMEOUT_CHECK_MS);
    assert.ok(app.server.headersTimeout + interval < 35_000, 'the worst case stays under 35 s');
  } finally {
    await app.close();
  }
});

test('a client sending one byte of its headers every 5 s is answered 408 and cut once the header limit passes', { timeout: 30_000 }, async () => {
  // The real cadence of a slow-header client, against a 7 s limit (instead of 30 s) to keep the run short.
  const app = await buildApp(t.runtime.deps, { logger: pino({ level: 'silent' }), headersTimeoutMs: 7_000, requestTimeoutMs: 7_000 });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const head = `GET /v1/competitions HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${t.key}\r\nx-slow: ${'a'.repeat(100)}\r\n\r\n`;
    const started = Date.now();
    const outcome = await new Promise<{ data: string; closedAfterMs: number; sent: number }>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      let sent = 0;
      const drip = () => {
        if (socket.writable && sent < head.length) socket.write(head[sent++]);
      };
      let timer: NodeJS.Timeout | undefined;
      socket.on('connect', () => {
        drip();
        timer = setInterval(drip, 5_000);
      });
      socket.on('data', (d) => (data += d.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ data, closedAfterMs: Date.now() - started, sent });
      });
    });
    assert.ok(outcome.closedAfterMs >= 7_000 && outcome.closedAfterMs < 9_500, `closed after ${outcome.closedAfterMs} ms`);
    assert.ok(outcome.sent < 5, `${outcome.sent} bytes sent: the head never completed`);
    assert.match(outcome.data, /^HTTP\/1\.1 408 /);
    assert.match(outcome.data, /\{"error":"Request timeout"\}$/);
  } finally {
    await app.close();
  }
});
