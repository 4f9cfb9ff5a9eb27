import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly signature: string;
  readonly raw: string;
  readonly body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  readonly at: number;
}

/** Checks a `Touchline-Signature` header as a receiver would, written from the documented format alone. */
export function signatureValid(header: string, raw: string, secret: string, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${raw}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A webhook receiver on a loopback port: records every POST, answers the status `answer` gives (200 by default). */
export async function startReceiver(answer: (n: number) => number = () => 200): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString();
      const status = answer(++n);
      if (status >= 200 && status < 300) received.push({ signature: String(req.headers['touchline-signature'] ?? ''), raw, body: JSON.parse(raw) as Received['body'], at: Date.now() });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/touchline`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
