// Only the parts of Observable Plot the charts use: loaded through this module, the lazy chunk is
// tree-shaken (a dynamic import of the whole package would keep all of it).
export { barX, dot, line, plot, ruleX, ruleY, text } from '@observablehq/plot';
