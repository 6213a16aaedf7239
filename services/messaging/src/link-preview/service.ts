/**
 * Link preview use case: normalize, recognize, fetch (SSRF-safe), parse, cache. The answer's `image` and
 * `thumbnail` are same-origin signed paths of the image proxy (image-proxy.ts), never the third-party address.
 */
import { DomainError, type LinkPreview } from '@ephemera/proto';
import { SafeFetcher, type FetcherOptions } from './fetcher.ts';
import { parsePage, type PageMeta } from './parser.ts';
import { PreviewCache, type CacheOptions } from './cache.ts';
import { normalizeUrl, recognize, youtubeThumbnail } from './url.ts';
import { ImageProxy, ImageSigner, type ImageProxyOptions } from './image-proxy.ts';
import { DEV_MASTER_KEY } from '@ephemera/platform';

export interface LinkPreviewOptions {
  fetcher?: FetcherOptions;
  cache?: CacheOptions;
  /** the module's master key (ROOM_MASTER_KEY / DATA_DIR/master.key): the image signing key derives from it */
  masterKey?: Buffer;
  images?: ImageProxyOptions;
}

const EMPTY: PageMeta = { title: null, description: null, image: null, author: null, siteName: null };

export class LinkPreviewService {
  readonly fetcher: SafeFetcher;
  readonly cache: PreviewCache;
  /** GET /api/link-preview/image: the images of these previews, through the same fetcher */
  readonly images: ImageProxy;

  constructor(opts: LinkPreviewOptions = {}) {
    this.fetcher = new SafeFetcher(opts.fetcher);
    this.cache = new PreviewCache(opts.cache);
    this.images = new ImageProxy(this.fetcher, new ImageSigner(opts.masterKey ?? DEV_MASTER_KEY), opts.images);
  }

  /** The preview of `input`; DomainError VALIDATION (bad address), LINK_PREVIEW_BLOCKED or LINK_PREVIEW_FAILED. */
  async preview(input: string): Promise<LinkPreview> {
    const url = normalizeUrl(input);
    return this.cache.get(url.href, () => this.load(url));
  }

  /** The preview this server already fetched for `input`, or null: what a sent message may carry. */
  cached(input: string): LinkPreview | null {
    try {
      return this.cache.peek(normalizeUrl(input).href);
    } catch {
      return null;
    }
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
    const proxied = (address: string | null) => (address ? this.images.path(address) : null);
    const siteName =
      page.siteName ?? (kind.type === 'youtube' ? 'YouTube' : kind.type === 'instagram' ? 'Instagram' : null);
    return {
      type: kind.type,
      url: url.href,
      title: page.title,
      description: page.description,
      image: proxied(page.image),
      thumbnail: proxied(kind.videoId ? youtubeThumbnail(kind.videoId) : null),
      author: page.author,
      siteName,
      postId: kind.postId,
      videoId: kind.videoId,
    };
  }

  close(): void {
    this.fetcher.close();
  }
}
