/**
 * Every theme's text on its backgrounds meets WCAG 2.1 AA for normal text (4.5:1; docs/product/rooms.md R31). The
 * pairs are the ones styles.css draws: bubble text, and (as the text colour they inherit) links, file sizes and times
 * on own bubbles; the faded times on others'; page, card and muted text; button labels; the sidebar; link buttons. The contrast math is axe-core's, the same the
 * browser tests' accessibility scan uses.
 */
import { describe, expect, it } from 'vitest';
import axe from 'axe-core';
import { THEME_IDS } from '@ephemera/proto/client';
import { colorsOf } from './themes.ts';
import { linkColorOf } from './colorContrast.ts';
import type { ThemeColors } from './themePalettes.ts';

const AA_NORMAL_TEXT = 4.5;

interface AxeColor {
  alpha: number;
  parseString(s: string): void;
}
const colorApi = (
  axe as unknown as {
    commons: {
      color: {
        Color: new () => AxeColor;
        getContrast(bg: AxeColor, fg: AxeColor): number;
        flattenColors(fg: AxeColor, bg: AxeColor): AxeColor;
      };
    };
  }
).commons.color;
/** Contrast of text drawn at an opacity over its background (the faded text's colour as the eye sees it). */
function contrast(fg: string, bg: string, opacity = 1): number {
  const f = new colorApi.Color();
  f.parseString(fg);
  f.alpha = opacity;
  const b = new colorApi.Color();
  b.parseString(bg);
  return colorApi.getContrast(b, colorApi.flattenColors(f, b));
}

/** A theme's colours and the link colour styles.css draws .link-button in (--link). */
type Drawn = ThemeColors & { link: string };

/** [text, background, where it shows, the opacity styles.css draws it at] */
const PAIRS: [keyof Drawn, keyof Drawn, string, number?][] = [
  ['sentText', 'sentMessage', 'own message text, its links, file sizes and times (.message.own .bubble-foot: opaque)'],
  ['receivedText', 'receivedMessage', "others' message text and links"],
  ['receivedText', 'receivedMessage', "times in others' messages (.bubble-foot at 0.7)", 0.7],
  ['textPrimary', 'background', 'text on the page'],
  ['textPrimary', 'surface', 'text on cards and panels'],
  ['textSecondary', 'surface', 'secondary text on cards'],
  ['textSecondary', 'background', 'secondary text on the page'],
  ['textMuted', 'surface', 'muted text on cards'],
  ['textMuted', 'background', 'timestamps and separators on the chat background'],
  ['buttonText', 'button', 'button labels'],
  ['sidebarText', 'sidebar', 'the sidebar'],
  ['link', 'surface', 'link buttons in dialogs and on cards (.link-button)'],
  ['link', 'background', 'link buttons on the page (.link-button)'],
];

describe('theme contrast: WCAG AA over every theme (docs/product/rooms.md R31)', () => {
  for (const id of THEME_IDS) {
    it(`${id}: every text colour on its background is at least ${AA_NORMAL_TEXT}:1`, () => {
      const colors = colorsOf(id);
      const c: Drawn = { ...colors, link: linkColorOf(colors) };
      const failing = PAIRS.map(([fg, bg, where, opacity]) => ({
        where,
        fg: c[fg],
        bg: c[bg],
        ratio: Math.round(contrast(c[fg], c[bg], opacity) * 100) / 100,
      })).filter((p) => p.ratio < AA_NORMAL_TEXT);
      expect(failing).toEqual([]);
    });
  }
});
