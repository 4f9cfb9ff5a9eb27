/**
 * Warnings on analysis answers (EXTENSIONS.md "Warnings on every analysis answer"): typed values
 * with a plain sentence holding the numbers. The models decide when each applies; http only shows them.
 * The league-level codes (`season_clubs_assumed`, `thin_squad`) come from the league simulation.
 */
import type { Snapshot } from '../domain/snapshot.js';
import { playerFacts } from '../domain/player-facts.js';
import { featureIndex, latestValue } from './features/index.js';
import { dayOf } from '../domain/days.js';

export type WarningCode = 'season_clubs_assumed' | 'thin_squad' | 'already_at_club' | 'free_agent' | 'stale_value' | 'leagues_differ';

export interface Warning {
  code: WarningCode;
  message: string;
}

/** A crowd value older than this (days before the as-of date) is stale. */
export const STALE_AFTER_DAYS = 365;

const eurM = (eur: number) => `€${(eur / 1e6).toFixed(eur >= 10e6 ? 0 : 1)}M`;

/**
 * The contract end used for a player: the one asked about, else the registry's (the contract in force
 * at the as-of date; null when unknown, including a contract the registry holds of a later club).
 */
export function contractEndUsed(snapshot: Snapshot, playerId: string, asked?: string | null): string | null {
  return asked ?? snapshot.contracts.get(playerId)?.end_date ?? null;
}

/** `free_agent` when the contract used ended on or before the as-of date (the transfer date). */
export function freeAgentWarning(snapshot: Snapshot, playerId: string, contractEnd: string | null): Warning | null {
  if (contractEnd === null || contractEnd > snapshot.asOf) return null;
  const name = snapshot.players.get(playerId)?.name ?? playerId;
  return {
    code: 'free_agent',
    message: `${name}'s contract ended on ${contractEnd}, on or before the transfer date ${snapshot.asOf}: no fee is due.`,
  };
}

/** `already_at_club` when he already plays for the club named (or it owns his registration while he is on loan). */
export function alreadyAtClubWarning(snapshot: Snapshot, playerId: string, clubId: string | null | undefined): Warning | null {
  const player = snapshot.players.get(playerId);
  if (!player || !clubId) return null;
  const facts = playerFacts(snapshot, player);
  if (facts.currentTeamId !== clubId && facts.owningClubId !== clubId) return null;
  const club = snapshot.clubs.get(clubId)?.name ?? clubId;
  return { code: 'already_at_club', message: `${player.name} already plays for ${club}: the answer is for a player the club has, not a signing.` };
}

/** `stale_value` when his latest crowd value is more than 12 months older than the as-of date. */
export function staleValueWarning(snapshot: Snapshot, playerId: string): Warning | null {
  const v = latestValue(featureIndex(snapshot), playerId, snapshot.asOf);
  if (!v) return null;
  const days = dayOf(snapshot.asOf) - dayOf(v.date);
  if (days <= STALE_AFTER_DAYS) return null;
  const name = snapshot.players.get(playerId)?.name ?? playerId;
  return {
    code: 'stale_value',
    message: `${name}'s latest crowd value, ${eurM(v.valueEur)}, dates from ${v.date}, ${Math.floor(days / 30.4369)} months before the as-of date ${snapshot.asOf}.`,
  };
}

/** The player-level warnings of an answer about one player and (optionally) a club, in a fixed order. */
export function playerWarnings(snapshot: Snapshot, playerId: string, opts: { clubId?: string | null; contractEnd?: string | null } = {}): Warning[] {
  const out = [
    alreadyAtClubWarning(snapshot, playerId, opts.clubId),
    opts.contractEnd === undefined ? null : freeAgentWarning(snapshot, playerId, opts.contractEnd),
    staleValueWarning(snapshot, playerId),
  ];
  return out.filter((w): w is Warning => w !== null);
}
