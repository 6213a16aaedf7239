import { describe, expect, it } from 'vitest';
import { firstPreviewUrl, httpUrl, proxiedImageSrc } from './previewUrl.ts';

describe('firstPreviewUrl: the first http(s) address of a draft', () => {
  it('finds the first one, without trailing punctuation', () => {
    expect(firstPreviewUrl('see https://example.com/a, and http://other.org')).toBe('https://example.com/a');
    expect(firstPreviewUrl('(look: http://example.com/x).')).toBe('http://example.com/x');
  });
  it('skips mailto and other schemes, and text without an address', () => {
    expect(firstPreviewUrl('mail mailto:a@b.c then https://x.y/z')).toBe('https://x.y/z');
    expect(firstPreviewUrl('javascript:alert(1) ftp://x.y nothing')).toBeNull();
    expect(firstPreviewUrl('')).toBeNull();
  });
  it('does not take a scheme glued to a word', () => {
    expect(firstPreviewUrl('xhttp://evil.com')).toBeNull();
  });
  it('skips addresses longer than the server accepts', () => {
    expect(firstPreviewUrl(`https://a.b/${'x'.repeat(3000)} https://ok.example`)).toBe('https://ok.example/');
  });
});

describe('httpUrl: links and images only from http(s)', () => {
  it('keeps http and https', () => {
    expect(httpUrl('https://img.example/a.png')).toBe('https://img.example/a.png');
    expect(httpUrl('http://img.example/a.png')).toBe('http://img.example/a.png');
  });
  it('refuses everything else', () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'mailto:a@b.c',
      '//x.y/z',
      'not a url',
      '',
      null,
      undefined,
    ]) {
      expect(httpUrl(bad)).toBeNull();
    }
  });
});

describe('proxiedImageSrc: preview images only from our own image proxy path', () => {
  const path = '/api/link-preview/image?u=https%3A%2F%2Fcdn.example%2Fa.png&s=abcDEF_-123';
  it('keeps the same-origin signed path', () => {
    expect(proxiedImageSrc(path)).toBe(path);
  });
  it('refuses third-party addresses and anything that leaves the path', () => {
    for (const bad of [
      'https://cdn.example/a.png',
      'http://img.example/a.png',
      '//evil.example/api/link-preview/image?u=x',
      '/\\evil.example/x',
      'https://evil.example/api/link-preview/image?u=x&s=y',
      '/api/link-preview/image',
      '/api/link-preview/image/../../x?u=1',
      '/api/link-preview/fetch?u=x',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '',
      null,
      undefined,
    ]) {
      expect(proxiedImageSrc(bad), String(bad)).toBeNull();
    }
  });
});
