import type { FastifyInstance } from 'fastify';
import type { HttpDeps } from '../deps.js';
import { authLoginRoute } from './auth-login.js';
import { authLogoutRoute } from './auth-logout.js';
import { careerPathRoute } from './career-path.js';
import { competitionsRoute } from './competitions.js';
import { expectedTransferValueRoute } from './expected-transfer-value.js';
import { getClubsInCompetitionRoute } from './get-clubs-in-competition.js';
import { getFutureTransferValueRoute } from './get-future-transfer-value.js';
import { getPlayersAtClubRoute } from './get-players-at-club.js';
import { getRoiAnalysisRoute } from './get-roi-analysis.js';
import { getSportiveImpactRoute } from './get-sportive-impact.js';
import { healthRoute } from './health.js';
import { readyRoute } from './ready.js';
import { usageRoute } from './usage.js';
import { leagueForecastRoute } from './league-forecast.js';
import { marketValueHistoryRoute } from './market-value-history.js';
import { matchForecastRoute } from './match-forecast.js';
import { modelCardRoute } from './model-card.js';
import { playerInfoRoute } from './player-info.js';
import { playerPositionsRoute } from './player-positions.js';
import { playersRoute } from './players.js';
import { playingTimeRoute } from './playing-time.js';
import { queryClubRoute } from './query-club.js';
import { queryPlayerRoute } from './query-player.js';
import { recommendSigningsRoute } from './recommend-signings.js';
import { roleDescriptionRoute } from './role-description.js';
import { searchRoute } from './search.js';
import { shortlistRoute } from './shortlist.js';
import { listsRoute } from './lists.js';
import { listsEntriesRoute } from './lists-entries.js';
import { orgActivityRoute } from './org-activity.js';
import { orgMembersRoute } from './org-members.js';
import { orgShadowSquadRoute } from './org-shadow-squad.js';
import { similarPlayersRoute } from './similar-players.js';
import { squadAnalysisRoute } from './squad-analysis.js';
import { webhooksRoute } from './webhooks.js';
import { mcpRoute } from './mcp.js';

/**
 * Every API endpoint, one file each, named after its path (`/v1/get_roi_analysis` is
 * `get-roi-analysis.ts`, its long schemas in `get-roi-analysis.schema.ts` beside it). Registered in
 * this order, which is the order of the OpenAPI document.
 */
export function apiRoutes(app: FastifyInstance, deps: HttpDeps): void {
  healthRoute(app, deps);
  readyRoute(app, deps);
  authLoginRoute(app, deps);
  authLogoutRoute(app, deps);
  usageRoute(app, deps);
  competitionsRoute(app, deps);
  getClubsInCompetitionRoute(app, deps);
  getPlayersAtClubRoute(app, deps);
  playerPositionsRoute(app, deps);
  roleDescriptionRoute(app, deps);
  queryClubRoute(app, deps);
  queryPlayerRoute(app, deps);
  playerInfoRoute(app, deps);
  careerPathRoute(app, deps);
  playingTimeRoute(app, deps);
  expectedTransferValueRoute(app, deps);
  getFutureTransferValueRoute(app, deps);
  getSportiveImpactRoute(app, deps);
  getRoiAnalysisRoute(app, deps);
  squadAnalysisRoute(app, deps);
  searchRoute(app, deps);
  similarPlayersRoute(app, deps);
  playersRoute(app, deps);
  marketValueHistoryRoute(app, deps);
  leagueForecastRoute(app, deps);
  matchForecastRoute(app, deps);
  modelCardRoute(app, deps);
  recommendSigningsRoute(app, deps);
  shortlistRoute(app, deps);
  webhooksRoute(app, deps);
  mcpRoute(app);
  orgMembersRoute(app, deps);
  listsRoute(app, deps);
  listsEntriesRoute(app, deps);
  orgActivityRoute(app, deps);
  orgShadowSquadRoute(app, deps);
}
