import { describe, expect, it } from 'vitest';
import { hasFormatting, plainText } from './markdown';

describe('plainText (docs/product/messages.md, Formatting)', () => {
  it('leaves text without formatting as it is', () => {
    expect(plainText('hello there, see https://example.com/a_b')).toBe('hello there, see https://example.com/a_b');
    expect(plainText('a # heading stays')).toBe('a # heading stays');
  });
  it('strips emphasis, strikethrough and code markers', () => {
    expect(plainText('**bold** and *italic* and _also_ and ~~gone~~')).toBe('bold and italic and also and gone');
    expect(plainText('__strong__ `x * y`')).toBe('strong x * y');
    expect(plainText('***both***')).toBe('both');
  });
  it('keeps underscores inside words and lone markers', () => {
    expect(plainText('snake_case_name and 2 * 3 * 4')).toBe('snake_case_name and 2 * 3 * 4');
  });
  it('keeps the text of links, drops their address', () => {
    expect(plainText('see [the docs](https://example.com/x) now')).toBe('see the docs now');
  });
  it('strips quote and list markers line by line', () => {
    expect(plainText('> quoted\n- one\n* two\n1. three')).toBe('quoted\none\ntwo\nthree');
  });
  it('keeps code blocks as they are, without their fences', () => {
    expect(plainText('look:\n```js\nconst a = **b**;\n```\ndone')).toBe('look:\nconst a = **b**;\ndone');
  });
  it('keeps escaped markers as characters', () => {
    expect(plainText('\\*not italic\\* and \\_x\\_')).toBe('*not italic* and _x_');
  });
  it('does not strip what is not in the subset', () => {
    expect(plainText('# title')).toBe('# title');
    expect(plainText('<b>hi</b>')).toBe('<b>hi</b>');
  });
  it('handles a long run of nested markers quickly', () => {
    const text = '**_~~'.repeat(100) + 'x' + '~~_**'.repeat(100) + '*'.repeat(1000);
    const started = performance.now();
    const out = plainText(text);
    expect(out).toContain('x');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('hasFormatting', () => {
  it('is false only when no formatting can be present', () => {
    expect(hasFormatting('hello, @bob! see https://example.com')).toBe(false);
    expect(hasFormatting('**hi**')).toBe(true);
    expect(hasFormatting('line\n- item')).toBe(true);
    expect(hasFormatting('> quote')).toBe(true);
    expect(hasFormatting('1. first')).toBe(true);
    expect(hasFormatting('price: 5 - 3')).toBe(false);
  });
});
