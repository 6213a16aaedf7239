import { describe, expect, it } from 'vitest';
import { safeHref, splitLinks } from './links.ts';

const join = (text: string) =>
  splitLinks(text)
    .map((p) => p.text)
    .join('');
const links = (text: string) => splitLinks(text).filter((p) => p.kind === 'link');

describe('splitLinks: only http, https and mailto become links', () => {
  it('finds an https link inside text', () => {
    expect(splitLinks('see https://example.com/a?b=1 now')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { kind: 'text', text: ' now' },
    ]);
  });
  it('finds http and mailto links', () => {
    expect(links('http://a.test and mailto:bob@example.com').map((l) => l.kind === 'link' && l.href)).toEqual([
      'http://a.test/',
      'mailto:bob@example.com',
    ]);
  });
  it('never links javascript:, data: or other schemes', () => {
    for (const text of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://example.com',
      'vbscript:msgbox',
      'JaVaScRiPt:alert(1)',
    ]) {
      expect(links(text)).toEqual([]);
      expect(join(text)).toBe(text);
    }
  });
  it('does not treat a scheme glued to a word as a link', () => {
    expect(links('xhttps://evil.test')).toEqual([]);
  });
  it('drops trailing punctuation and unbalanced brackets', () => {
    expect(links('go to https://example.com.').map((l) => l.text)).toEqual(['https://example.com']);
    expect(links('(see https://example.com/x)').map((l) => l.text)).toEqual(['https://example.com/x']);
    expect(links('https://en.wikipedia.org/wiki/Foo_(bar)').map((l) => l.text)).toEqual([
      'https://en.wikipedia.org/wiki/Foo_(bar)',
    ]);
  });
  it('keeps markup characters as text', () => {
    const text = '<img src=x onerror=alert(1)> https://ok.test/"onmouseover="x';
    expect(join(text)).toBe(text);
    expect(links(text).map((l) => l.text)).toEqual(['https://ok.test/']);
  });
  it('gives the input back when joined', () => {
    const text = 'a https://x.test b mailto:c@d.test, e http://f.test/g!';
    expect(join(text)).toBe(text);
  });
  it('ignores a bare scheme', () => {
    expect(links('http:// and mailto:')).toEqual([]);
  });
});

describe('safeHref', () => {
  it('accepts allowed protocols only', () => {
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('not a url')).toBeNull();
  });
});
