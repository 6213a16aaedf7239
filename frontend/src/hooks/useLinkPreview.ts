/**
 * The composer's link preview (docs/product/messages.md M16): after LINK_PREVIEW_DEBOUNCE_MS of typing pause the first
 * http(s) address of the draft is fetched; a successful answer is shown until dismissed or the address changes.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LinkPreview } from '@ephemera/proto';
import { firstPreviewUrl } from '../lib/previewUrl.ts';
import type { PreviewResult } from '../lib/chatCommands.ts';

export const LINK_PREVIEW_DEBOUNCE_MS = 1000;

export interface LinkPreviewState {
  /** the preview for the draft's first address, when the server gave one and it was not dismissed */
  preview: LinkPreview | null;
  loading: boolean;
  dismiss(): void;
}

type Fetcher = (url: string, signal: AbortSignal) => Promise<PreviewResult>;

export function useLinkPreview(draft: string, fetchPreview: Fetcher): LinkPreviewState {
  const url = firstPreviewUrl(draft);
  const [result, setResult] = useState<{ url: string; preview: LinkPreview } | null>(null);
  const [loadingUrl, setLoadingUrl] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  /** the address being fetched (or fetched) and how to cancel it */
  const inFlight = useRef<{ url: string; controller: AbortController } | null>(null);

  // every edit restarts the pause; when it ends, fetch the address unless it is already fetched or dismissed
  useEffect(() => {
    if (!url || url === dismissed || inFlight.current?.url === url) return;
    const timer = setTimeout(() => {
      inFlight.current?.controller.abort();
      const controller = new AbortController();
      inFlight.current = { url, controller };
      setLoadingUrl(url);
      fetchPreview(url, controller.signal)
        .then((r) => {
          if (controller.signal.aborted) return;
          if (r.ok) setResult({ url, preview: r.preview });
          else inFlight.current = null; // a failed address may be tried again after the next pause
        })
        .catch(() => {
          /* aborted: a newer address took over */
        })
        .finally(() => {
          if (!controller.signal.aborted) setLoadingUrl(null);
        });
    }, LINK_PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, url, dismissed, fetchPreview]);

  // the address went away or changed: forget the fetch for the old one
  useEffect(() => {
    if (inFlight.current && inFlight.current.url !== url) {
      inFlight.current.controller.abort();
      inFlight.current = null;
      setLoadingUrl(null);
    }
  }, [url]);

  useEffect(() => () => inFlight.current?.controller.abort(), []);

  const dismiss = useCallback(() => setDismissed(url), [url]);
  const preview = url && result?.url === url && dismissed !== url ? result.preview : null;
  return { preview, loading: Boolean(url && loadingUrl === url && dismissed !== url), dismiss };
}
