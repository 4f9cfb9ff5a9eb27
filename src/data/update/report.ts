import type { WorldData, WorldTables } from '../../domain/world.js';
import { WORLD_TABLE_ORDER } from '../../domain/world.js';

export interface ValueChange {
  player_id: string;
  name: string;
  club: string | null;
  old_value_eur: number;
  new_value_eur: number;
}

export interface UpdateReport {
  status: 'updated' | 'unchanged' | 'checked' | 'rolled_back';
  source: string;
  data_as_of: { before: string | null; after: string | null };
  counts: { before: Record<string, number>; after: Record<string, number> };
  players_added: Array<{ id: string; name: string }>;
  players_removed: Array<{ id: string; name: string }>;
  largest_value_changes: ValueChange[];
  duration_ms: number;
}

const counts = (w: WorldData): Record<string, number> => Object.fromEntries(WORLD_TABLE_ORDER.map((t) => [t, w[t].length]));

/** Each player's latest market value (and the club it was recorded at). */
function latestValues(rows: WorldTables['market_values'][]): Map<string, { value: number; date: string; club: string | null }> {
  const out = new Map<string, { value: number; date: string; club: string | null }>();
  for (const r of rows) {
    const prev = out.get(r.player_id);
    if (!prev || r.date >= prev.date) out.set(r.player_id, { value: r.value_eur, date: r.date, club: r.club_id });
  }
  return out;
}

/** What an update changes: counts per table, players in and out, the 20 largest moves of a player's latest value. */
export function compareWorlds(before: WorldData, after: WorldData): Pick<UpdateReport, 'counts' | 'players_added' | 'players_removed' | 'largest_value_changes'> {
  const beforeIds = new Set(before.players.map((p) => p.id));
  const afterIds = new Set(after.players.map((p) => p.id));
  const clubName = new Map(after.clubs.map((c) => [c.id, c.name]));
  for (const c of before.clubs) if (!clubName.has(c.id)) clubName.set(c.id, c.name);
  const old = latestValues(before.market_values);
  const changes: ValueChange[] = [];
  for (const [id, now] of latestValues(after.market_values)) {
    const was = old.get(id);
    if (!was || was.value === now.value) continue;
    changes.push({ player_id: id, name: '', club: now.club ? (clubName.get(now.club) ?? null) : null, old_value_eur: was.value, new_value_eur: now.value });
  }
  changes.sort((a, b) => Math.abs(b.new_value_eur - b.old_value_eur) - Math.abs(a.new_value_eur - a.old_value_eur) || a.player_id.localeCompare(b.player_id));
  const top = changes.slice(0, 20);
  const names = new Map(after.players.map((p) => [p.id, p.name]));
  for (const c of top) c.name = names.get(c.player_id) ?? c.player_id;
  return {
    counts: { before: counts(before), after: counts(after) },
    players_added: after.players.filter((p) => !beforeIds.has(p.id)).map((p) => ({ id: p.id, name: p.name })),
    players_removed: before.players.filter((p) => !afterIds.has(p.id)).map((p) => ({ id: p.id, name: p.name })),
    largest_value_changes: top,
  };
}

/** What a `data.updated` webhook carries: the report without its long lists (their lengths instead). */
export function reportSummary(report: UpdateReport, dataVersion: string) {
  return {
    status: report.status,
    source: report.source,
    data_version: dataVersion,
    data_as_of: report.data_as_of,
    counts: report.counts.after,
    players_added: report.players_added.length,
    players_removed: report.players_removed.length,
    largest_value_changes: report.largest_value_changes.slice(0, 5),
  };
}

const eur = (n: number) => `€${n >= 1e6 ? `${(n / 1e6).toFixed(1)}m` : `${Math.round(n / 1e3)}k`}`;

/** The report as printed. */
export function reportText(r: UpdateReport): string {
  if (r.status === 'unchanged') return `unchanged: the source is what is served already (${r.source})`;
  const head = { updated: 'updated', checked: 'checked (--dry-run: nothing changed)', rolled_back: 'rolled back', unchanged: '' }[r.status];
  const lines = [
    `${head} from ${r.source} in ${(r.duration_ms / 1000).toFixed(1)} s; data as of ${r.data_as_of.before ?? '-'} -> ${r.data_as_of.after ?? '-'}`,
    `  rows: ${Object.keys(r.counts.after).map((t) => `${t} ${r.counts.before[t] ?? 0} -> ${r.counts.after[t]}`).join(', ')}`,
    `  players added: ${r.players_added.length}${r.players_added.length ? ` (${r.players_added.slice(0, 10).map((p) => p.name).join(', ')}${r.players_added.length > 10 ? ', ...' : ''})` : ''}`,
    `  players removed: ${r.players_removed.length}${r.players_removed.length ? ` (${r.players_removed.slice(0, 10).map((p) => p.name).join(', ')}${r.players_removed.length > 10 ? ', ...' : ''})` : ''}`,
    `  largest value changes:`,
    ...r.largest_value_changes.map((c) => `    ${c.name} (${c.club ?? 'no club'}): ${eur(c.old_value_eur)} -> ${eur(c.new_value_eur)}`),
  ];
  return lines.join('\n');
}
