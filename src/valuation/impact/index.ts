export { ImpactError, type ImpactErrorCode } from './errors.js';
export {
  fitImpactModel, leagueMatchModel, resolveImpactSettings, IMPACT_MODEL_VERSION, HORIZON_SEASONS,
  type ImpactArtifact, type ImpactSettings, type ResolvedImpactSettings,
} from './model.js';
export {
  sportiveImpact, warmClub, squadAnalysis, roiOf, simulationSeed, revenueTableOf, actualLeagueTable, leagueStrengths, tableSeed, leagueOf,
  type LeagueSetup,
  type SportiveImpact, type SeasonImpact, type SquadAnalysis, type SquadEntryInput, type SquadEntryUsed, type ImpactRunSettings, type LeagueTable, type LeagueStrengths,
} from './impact.js';
export { withModelRatings } from './ratings.js';
export { clubSquad, clubStrength, squadEvidence, fillRating, newlyNamed, isStandIn, promotedStrength, THIN_SQUAD, type PromotedStrength, type SquadEvidence } from './club-squad.js';
export { clubSeasonWarnings, forecastWarnings, seasonClubsWarnings, thinSquadWarnings, type SeasonWarning, type SeasonWarningCode } from './season-warnings.js';
