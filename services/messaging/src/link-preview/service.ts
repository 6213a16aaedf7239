/** Link preview use case: normalize, recognize, fetch (SSRF-safe), parse, cache. */
import { DomainError, type LinkPreview } from '@ephemera/proto';
import { SafeFetcher, type FetcherOptions } from './fetcher.ts';
import { parsePage, type PageMeta } from './parser.ts';
import { PreviewCache, type CacheOptions } from './cache.ts';
import { normalizeUrl, recognize, youtubeThumbnail } from './url.ts';

export interface LinkPreviewOptions { fetcher?: FetcherOptions; cache?: CacheOptions }

const EMPTY: PageMeta = { title: null, description: null, image: null, author: null, siteName: null };

export class LinkPreviewService {
  readonly fetcher: SafeFetcher;
  readonly cache: PreviewCache;

  constructor(opts: LinkPreviewOptions = {}) {
    this.fetcher = new SafeFetcher(opts.fetcher);
    this.cache = new PreviewCache(opts.cache);
  }

  /** The preview of `input`; DomainError VALIDATION (bad address), LINK_PREVIEW_BLOCKED or LINK_PREVIEW_FAILED. */
  async preview(input: string): Promise<LinkPreview> {
    const url = normalizeUrl(input);
    return this.cache.get(url.href, () => this.load(url));
  }

  /** The preview this server already fetched for `input`, or null: what a sent message may carry. */
  cached(input: string): LinkPreview | null {
    try { return this.cache.peek(normalizeUrl(input).href); } catch { return null; }
  }

  private async load(url: URL): Promise<LinkPreview> {
    const kind = recognize(url);
    let page: PageMeta = EMPTY;
    try {
      const fetched = await this.fetcher.fetch(url);
      page = parsePage(fetched.html, fetched.finalUrl);
    } catch (err) {
      // A YouTube or Instagram link is a preview from its address alone (the id is what the client embeds);
      // the page only adds a title. Any other link without a page has no preview.
      if (kind.type === 'other' || !(err instanceof DomainError)) throw err;
    }
    const siteName = page.siteName ?? (kind.type === 'youtube' ? 'YouTube' : kind.type === 'instagram' ? 'Instagram' : null);
    return {
      type: kind.type,
      url: url.href,
      title: page.title,
      description: page.description,
      image: page.image,
      thumbnail: kind.videoId ? youtubeThumbnail(kind.videoId) : null,
      author: page.author,
      siteName,
      postId: kind.postId,
      videoId: kind.videoId,
    };
  }

  close(): void { this.fetcher.close(); }
}
