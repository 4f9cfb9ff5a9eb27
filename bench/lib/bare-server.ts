/**
 * A bare Fastify route in a process of its own, answering the very bodies /v1/player_info gives
 * (read from the file bench/lib/engine-server.ts writes): what an outside probe compares our
 * request path with, free of our process's heap and threads. Prints `READY {"url": ...}`.
 *
 * Usage: node bench/lib/bare-server.js <bodies.json>   (bench/engine.ts transpiles and starts it)
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const bodies = new Map(Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8')) as Record<string, unknown>));
const bare = Fastify();
bare.get('/bare', async (req) => bodies.get((req.query as { player_id?: string }).player_id ?? '') ?? { error: 'Player not found' });
const url = await bare.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${JSON.stringify({ url, bareUrl: url, pid: process.pid })}\n`);
process.once('SIGTERM', () => void bare.close().then(() => process.exit(0)));
