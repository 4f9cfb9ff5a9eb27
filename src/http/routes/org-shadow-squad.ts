import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Principal } from '../../access/interface.js';
import { isPositionCode } from '../../domain/positions.js';
import { seasonLabel } from '../../domain/season.js';
import type { Snapshot } from '../../domain/snapshot.js';
import type { ShadowSquad } from '../../domain/workspace.js';
import type { SquadValue } from '../../valuation/analysis.js';
import { HORIZON_YEARS } from '../../valuation/future/index.js';
import type { HttpDeps } from '../deps.js';
import { engineAnswer } from '../engine-answer.js';
import { ApiError, forbidden, notFound } from '../errors.js';
import { requireClub, requirePlayer } from '../guards.js';
import { round4 } from '../present/analysis.js';
import { pair, round2 } from '../present/money.js';
import { commonErrors, errorResponse } from '../schemas.js';
import { valuationContext } from '../valuation-context.js';
import { actorOf, orgOf } from '../workspace-hook.js';
import { ORG_403 } from './org-members.js';
import { shadowAnalysisOut, shadowSquadBody, shadowSquadOut } from './org-shadow-squad.schema.js';

export const NO_SHADOW_SQUAD = 'No shadow squad saved';
const NONE_404 = errorResponse.describe('`No shadow squad saved`: PUT one first');

const present = (q: ShadowSquad) => ({
  club_id: q.clubId,
  sell: q.sell.map((e) => ({ player_id: e.playerId, asking_fee: e.askingFeeEur })),
  targets: q.targets.map((e) => ({ player_id: e.playerId, fee: e.feeEur, annual_wage: e.annualWageEur })),
});

/** Unknown club or players 404, then the caller's plan: the club and every player covered, targets analysable when asked. */
function check(s: Snapshot, principal: Principal, q: ShadowSquad, analysis: boolean): void {
  if (!s.clubs.has(q.clubId)) throw notFound.club();
  for (const e of [...q.sell, ...q.targets]) if (!s.players.has(e.playerId)) throw notFound.player();
  requireClub(s, principal, q.clubId);
  for (const e of q.sell) requirePlayer(s, principal, e.playerId);
  for (const e of q.targets) requirePlayer(s, principal, e.playerId, { analysis });
}

/** GET and PUT /v1/org/shadow_squad, and POST /v1/org/shadow_squad/analysis (EXTENSIONS "Shadow squad"). */
export function orgShadowSquadRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/org/shadow_squad', {
    config: { workspace: 'shadow.read' },
    schema: {
      tags: ['organisation'],
      summary: 'The organisation\'s shadow squad',
      response: { 200: shadowSquadOut, ...commonErrors, 403: ORG_403, 404: NONE_404 },
    },
  }, async (req) => {
    const q = await deps.workspaces.shadowSquad(orgOf(req.workspace!).id);
    if (!q) throw new ApiError(404, NO_SHADOW_SQUAD);
    return present(q);
  });

  r.put('/v1/org/shadow_squad', {
    config: { workspace: 'shadow.write' },
    schema: {
      tags: ['organisation'],
      summary: 'Save the organisation\'s shadow squad (owner, scout)',
      description: 'Replaces the one saved. Money in EUR. The club and every player must be within the caller\'s plan.',
      body: shadowSquadBody,
      response: { 200: shadowSquadOut, ...commonErrors, 403: ORG_403 },
    },
  }, async (req) => {
    const ws = req.workspace!;
    const b = req.body;
    const q: ShadowSquad = {
      clubId: b.club_id,
      sell: (b.sell ?? []).map((e) => ({ playerId: e.player_id, askingFeeEur: e.asking_fee })),
      targets: (b.targets ?? []).map((e) => ({ playerId: e.player_id, feeEur: e.fee, annualWageEur: e.annual_wage })),
    };
    check(deps.snapshot(), req.principal!, q, false);
    return present(await deps.workspaces.saveShadowSquad(orgOf(ws).id, q, actorOf(ws)));
  });

  r.post('/v1/org/shadow_squad/analysis', {
    config: { workspace: 'shadow.analyse' },
    schema: {
      tags: ['organisation'],
      summary: 'The shadow squad as a squad what-if for the analysis season',
      description:
        'The club\'s actual squad without the players sold and with the targets at their positions, simulated as /v1/squad_analysis ' +
        'simulates a custom squad: both expected positions equal its expected_league_rank for the same squads. Money in the account\'s currency.',
      response: { 200: shadowAnalysisOut, ...commonErrors, 403: ORG_403, 404: errorResponse.describe('`No shadow squad saved`, `Club not found` or `Player not found`') },
    },
  }, async (req, reply) => {
    const q = await deps.workspaces.shadowSquad(orgOf(req.workspace!).id);
    if (!q) throw new ApiError(404, NO_SHADOW_SQUAD);
    const s = deps.snapshot();
    check(s, req.principal!, q, true);
    const ctx = valuationContext(deps, reply, undefined, req.principal!.preferredCurrency);
    const before = await engineAnswer<SquadValue>(deps, ctx, { kind: 'squad', clubId: q.clubId, squad: null });
    const sold = new Set(q.sell.map((e) => e.playerId));
    const squad = before.squad.filter((e) => !sold.has(e.playerId)).map((e) => ({ playerId: e.playerId, position: e.position }));
    for (const t of q.targets) {
      if (squad.some((e) => e.playerId === t.playerId)) continue;
      const position = requirePlayer(s, req.principal!, t.playerId, { analysis: true }).position;
      if (!isPositionCode(position)) throw forbidden.analysis();
      squad.push({ playerId: t.playerId, position });
    }
    const after = await engineAnswer<SquadValue>(deps, ctx, { kind: 'squad', clubId: q.clubId, squad });
    const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);
    const feesIn = pair(sum(q.sell.map((e) => e.askingFeeEur)), ctx.money);
    const feesOut = pair(sum(q.targets.map((e) => e.feeEur)), ctx.money);
    // The wages over the seasons the models look ahead (the future value's horizon, ROI's 3 × wage).
    const wages = pair(HORIZON_YEARS * sum(q.targets.map((e) => e.annualWageEur)), ctx.money);
    const value = pair(after.totalFutureEur, ctx.money);
    const warnings = [...before.warnings];
    for (const w of after.warnings) if (!warnings.some((x) => x.message === w.message)) warnings.push(w);
    return {
      club_id: q.clubId,
      season: seasonLabel(after.season),
      currency: ctx.money.code,
      original_expected_position: round2(before.expectedLeagueRank),
      new_expected_position: round2(after.expectedLeagueRank),
      place_probabilities: before.positionProbabilities.map((p, i) => ({ position: i + 1, before: round4(p), after: round4(after.positionProbabilities[i] ?? 0) })),
      fees_in: feesIn.amount,
      fees_in_in_eur: feesIn.amountEur,
      fees_out: feesOut.amount,
      fees_out_in_eur: feesOut.amountEur,
      wages_three_years: wages.amount,
      wages_three_years_in_eur: wages.amountEur,
      squad_value_in_three_years: value.amount,
      squad_value_in_three_years_in_eur: value.amountEur,
      warnings,
    };
  });
}
