/**
 * Colours chosen for legibility (WCAG 2.1 relative luminance and contrast): the label colour on a button colour the
 * room chose, and a theme's link colour that reads at AA on its cards and page.
 */
import { LIGHT_BASE, type ThemeColors } from './themePalettes.ts';

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** White or the default dark text, whichever reads better on a background the room chose (a custom button colour). */
export function readableTextOn(background: string): string {
  const l = luminance(background);
  const dark = LIGHT_BASE.textPrimary;
  return 1.05 / (l + 0.05) >= (l + 0.05) / (luminance(dark) + 0.05) ? '#ffffff' : dark;
}

const contrastRatio = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
/** WCAG AA for normal text */
const AA_TEXT_CONTRAST = 4.5;

/** `hex` moved `t` (0..1) of the way to `to` (#000000 or #ffffff). */
function mix(hex: string, to: string, t: number): string {
  const channel = (h: string, i: number) => parseInt(h.slice(i, i + 2), 16);
  return `#${[1, 3, 5]
    .map((i) =>
      Math.round(channel(hex, i) + (channel(to, i) - channel(hex, i)) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * The colour of link text (.link-button): the theme's primary where it reads at AA on both the cards and the page,
 * else the primary darkened (on light backgrounds) or lightened (on dark ones) just enough. A custom theme's primary
 * is the room's choice, so this is computed rather than listed.
 */
export function linkColorOf(c: ThemeColors): string {
  const readable = (fg: string) =>
    contrastRatio(fg, c.surface) >= AA_TEXT_CONTRAST && contrastRatio(fg, c.background) >= AA_TEXT_CONTRAST;
  const toward = luminance(c.surface) > 0.18 ? '#000000' : '#ffffff';
  for (let t = 0; t <= 1; t += 0.02) {
    const candidate = mix(c.primary, toward, t);
    if (readable(candidate)) return candidate;
  }
  return toward;
}
