export * from '../../src/valuation/league/simulate.js';
