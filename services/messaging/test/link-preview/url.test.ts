/** Unit tests: YouTube/Instagram recognition, address normalization, the address rule, allowlist parsing, page parsing. */
import { describe, it, expect } from 'vitest';
import { LinkPreviewRequestSchema } from '@ephemera/proto';
import { recognize, normalizeUrl } from '../../src/link-preview/url.ts';
import { isPublicAddress, parseAllowHosts } from '../../src/link-preview/address-guard.ts';
import { parsePage } from '../../src/link-preview/parser.ts';

const r = (s: string) => recognize(new URL(s));

describe('YouTube links', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://music.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/aB3_-xYz012', 'aB3_-xYz012'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/live/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['HTTPS://WWW.YOUTUBE.COM/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
  ])('%s is video %s', (url, id) => {
    expect(r(url)).toEqual({ type: 'youtube', videoId: id, postId: null });
  });

  it.each([
    'https://www.youtube.com/watch',
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ-toolong',
    'https://www.youtube.com/@channel',
    'https://www.youtube.com/shorts/',
    'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'https://evil.example/youtube.com/watch?v=dQw4w9WgXcQ',
    'https://youtu.be/',
    'https://notyoutu.be/dQw4w9WgXcQ',
  ])('%s is not a video', (url) => {
    expect(r(url).type).toBe('other');
    expect(r(url).videoId).toBeNull();
  });
});

describe('Instagram links', () => {
  it.each([
    ['https://www.instagram.com/p/C1a2B3c4D5e/', 'C1a2B3c4D5e'],
    ['https://instagram.com/p/C1a2B3c4D5e', 'C1a2B3c4D5e'],
    ['https://www.instagram.com/reel/Cx_y-Z123ab/?igsh=xyz', 'Cx_y-Z123ab'],
    ['https://www.instagram.com/reels/Cx_y-Z123ab/', 'Cx_y-Z123ab'],
    ['https://www.instagram.com/tv/B1a2B3c4D5e/', 'B1a2B3c4D5e'],
    ['https://www.instagram.com/someone/p/C1a2B3c4D5e/', 'C1a2B3c4D5e'],
  ])('%s is post %s', (url, id) => {
    expect(r(url)).toEqual({ type: 'instagram', videoId: null, postId: id });
  });

  it.each([
    'https://www.instagram.com/',
    'https://www.instagram.com/someone/',
    'https://www.instagram.com/explore/tags/cats/',
    'https://www.instagram.com/p/',
    'https://instagram.com.evil.example/p/C1a2B3c4D5e/',
    'https://www.instagram.com/a/b/p/C1a2B3c4D5e/',
  ])('%s is not a post', (url) => {
    expect(r(url)).toEqual({ type: 'other', videoId: null, postId: null });
  });
});

describe('address normalization', () => {
  it('drops the fragment and credentials, lower-cases the host, drops the default port', () => {
    expect(normalizeUrl('  HTTP://User:Pw@Example.COM:80/a?b=1#frag ').href).toBe('http://example.com/a?b=1');
  });

  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0x7f.0.0.1/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
    ['http://[0:0:0:0:0:0:0:1]/', '[::1]'],
  ])('numeric spelling %s is checked as %s', (url, host) => {
    expect(normalizeUrl(url).hostname).toBe(host);
  });

  it.each([
    ['', 'Enter a link to preview'],
    ['not a link', 'This is not a valid link'],
    ['file:///etc/passwd', 'Only http and https links can be previewed'],
    ['javascript:alert(1)', 'Only http and https links can be previewed'],
    [`https://example.com/${'a'.repeat(2048)}`, 'The link is too long (2048 characters max)'],
  ])('%s is refused as input', (url, message) => {
    expect(() => normalizeUrl(url)).toThrow(message);
    const parsed = LinkPreviewRequestSchema.safeParse({ url });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });
});

describe('the address rule (ipaddr.js unicast only)', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '240.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'not-an-ip',
    '',
  ])('%s is refused', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e'])(
    '%s is allowed',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );
});

describe('LINK_PREVIEW_ALLOW_HOSTS parsing', () => {
  it('is empty by default and keeps only host:port entries, canonicalized', () => {
    expect(parseAllowHosts(undefined)).toEqual([]);
    expect(parseAllowHosts('')).toEqual([]);
    expect(parseAllowHosts('127.0.0.1:4000, LOCALHOST:5000,[::1]:6000,nohost,127.1:7000, :80')).toEqual([
      '127.0.0.1:4000',
      'localhost:5000',
      '[::1]:6000',
      '127.0.0.1:7000',
    ]);
  });
});

describe('page parsing (htmlparser2)', () => {
  const base = new URL('https://example.com/articles/1');

  it('prefers Open Graph, then Twitter, then <title> and meta description', () => {
    const og = parsePage(
      `<html><head><title>Plain</title>
      <meta name="description" content="plain description">
      <meta name="twitter:title" content="Twitter title">
      <meta property="og:title" content="OG &amp; title">
      <meta property="og:description" content="  OG
        description ">
      <meta property="og:image" content="/img/cover.png">
      <meta property="og:site_name" content="Example">
      <meta name="author" content="Ada">
    </head><body></body></html>`,
      base,
    );
    expect(og).toEqual({
      title: 'OG & title',
      description: 'OG description',
      image: 'https://example.com/img/cover.png',
      author: 'Ada',
      siteName: 'Example',
    });
    const tw = parsePage(
      '<title>Plain</title><meta name="twitter:title" content="Twitter title"><meta name="twitter:image" content="https://cdn.example/x.jpg">',
      base,
    );
    expect(tw).toMatchObject({ title: 'Twitter title', image: 'https://cdn.example/x.jpg', description: null });
    const plain = parsePage('<TITLE> Plain &lt;page&gt; </TITLE><META NAME="Description" CONTENT="d">', base);
    expect(plain).toMatchObject({ title: 'Plain <page>', description: 'd', image: null, siteName: null, author: null });
  });

  it('ignores an svg <title>, script text, non-http images, and cuts long fields', () => {
    const page = parsePage(
      `<svg><title>icon</title></svg><script>document.title="x"</script><title>Real</title>
      <meta property="og:image" content="javascript:alert(1)"><meta property="og:description" content="${'d'.repeat(5000)}">`,
      base,
    );
    expect(page.title).toBe('Real');
    expect(page.image).toBeNull();
    expect(page.description!.length).toBe(1000);
  });

  it('answers nulls for a page without metadata', () => {
    expect(parsePage('<p>hello</p>', base)).toEqual({
      title: null,
      description: null,
      image: null,
      author: null,
      siteName: null,
    });
  });
});
