/**
 * The server side of bench/heap-scavenge.ts: a bare Fastify route in a process that also holds
 * `BALLAST` thousand live objects shaped like the world's rows (an id, a repeated name, numbers, a
 * small array), as our serving process holds its world. Prints `READY <url>`.
 */
import Fastify from 'fastify';

const ballast: unknown[] = [];
for (let i = 0; i < Number(process.env.BALLAST ?? 0) * 1000; i++) {
  ballast.push({ id: `P${i}`, name: `player ${i % 5000}`, value: i * 1.5, season: 2000 + (i % 25), steps: [i, i + 1] });
}
(globalThis as { ballast?: unknown }).ballast = ballast;
const body = {
  service_id: 'P0123456789ABCDEFGHJKMNPQRS', player_role: 'Ball-playing defender', position: 'CB', nationality: 'England', age: 27,
  agency_name: 'CAA Base', contract_end_date: '2028-06-30', preferred_foot: 'Right', owning_club_id: 'C0123456789ABCDEFGHJKMNPQRS',
};
const app = Fastify();
app.get('/cpu', async () => process.cpuUsage());
app.get('/bare', async () => body);
process.stdout.write(`READY ${await app.listen({ port: 0, host: '127.0.0.1' })}\n`);
