import { createConnection, createServer, type Server } from 'node:net';
import { chmodSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * A local channel for operator commands: NDJSON over a unix socket owned by the server's user.
 * Request: one line `{"op", "args"}`. Answer: any number of `{"progress"}` lines, then one
 * `{"ok": true, "result"}` or `{"ok": false, "error"}`.
 */
export type OperationRunner = (op: string, args: Record<string, unknown>, progress: (line: string) => void) => Promise<unknown>;

export class OperationError extends Error {}

export async function serveAdminChannel(path: string, run: OperationRunner): Promise<Server> {
  rmSync(path, { force: true });
  const server = createServer((socket) => {
    const rl = createInterface({ input: socket });
    rl.once('line', (line) => {
      rl.close();
      const send = (o: unknown) => socket.writable && socket.write(`${JSON.stringify(o)}\n`);
      let req: { op?: unknown; args?: unknown };
      try {
        req = JSON.parse(line) as typeof req;
      } catch {
        send({ ok: false, error: 'malformed request' });
        socket.end();
        return;
      }
      const args = (req.args && typeof req.args === 'object' ? req.args : {}) as Record<string, unknown>;
      run(String(req.op), args, (progress) => send({ progress }))
        .then((result) => send({ ok: true, result }))
        .catch((err: unknown) => send({ ok: false, error: err instanceof Error ? err.message : String(err) }))
        .finally(() => socket.end());
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return server;
}

export function callAdminChannel(path: string, op: string, args: Record<string, unknown>, progress: (line: string) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let settled = false;
    socket.on('connect', () => socket.write(`${JSON.stringify({ op, args })}\n`));
    const rl = createInterface({ input: socket });
    rl.on('line', (line) => {
      const msg = JSON.parse(line) as { progress?: string; ok?: boolean; result?: unknown; error?: string };
      if (msg.progress !== undefined) progress(msg.progress);
      else if (msg.ok) {
        settled = true;
        resolve(msg.result);
      } else {
        settled = true;
        reject(new OperationError(msg.error ?? 'failed'));
      }
    });
    socket.on('error', (err) => {
      if (!settled) reject(new OperationError(`the running server did not answer on ${path}: ${err.message}`));
    });
    socket.on('close', () => {
      if (!settled) reject(new OperationError('the running server closed the channel before answering'));
    });
  });
}
