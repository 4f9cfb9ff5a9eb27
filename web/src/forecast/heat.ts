/** A sequential blue scale (light to dark) for probabilities, with the text colour that stays readable on it. */
const STOPS: ReadonlyArray<readonly [number, number, number]> = [
  [247, 251, 255],
  [107, 174, 214],
  [8, 48, 107],
];

const hex = (rgb: readonly number[]) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance of an sRGB colour. */
export function luminance(rgb: readonly number[]): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: readonly number[], b: readonly number[]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export function parseHex(colour: string): [number, number, number] {
  const n = Number.parseInt(colour.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * The cell colours for `t` in [0, 1] (clamped). The ink is black or white, whichever contrasts more:
 * with those two, every background reaches at least 4.5:1, the WCAG minimum for small text.
 */
export function heatColour(t: number): { background: string; ink: string } {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  const rgb = STOPS[i].map((c, k) => c + (STOPS[i + 1][k] - c) * f);
  const ink = contrast(rgb, [0, 0, 0]) >= contrast(rgb, [255, 255, 255]) ? '#000000' : '#ffffff';
  return { background: hex(rgb), ink };
}
