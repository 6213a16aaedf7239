/**
 * A link preview card (docs/product/messages.md M16): youtube, instagram or other. Every field is
 * rendered as text; links only to http(s) addresses; images only from our own origin's image proxy path (the
 * server writes it into every preview: `/api/link-preview/image?u=...&s=...`, docs/product/security.md S15), never a
 * third-party
 * address; images load without a referrer and hide themselves when they cannot load (refused, gone).
 */
import { useState } from 'react';
import type { MessageLinkPreview } from '@ephemera/proto';
import { httpUrl, proxiedImageSrc } from '../lib/previewUrl.ts';
import { truncate } from '../lib/format.ts';
import { CloseIcon } from './Icons.tsx';
import { useT } from '../i18n/i18n.ts';

const DESCRIPTION_CHARS = 200;

function PreviewImage({ src, className }: { src: string | null; className: string }) {
  const [failed, setFailed] = useState(false);
  const safe = proxiedImageSrc(src);
  if (!safe || failed) return null;
  return (
    <img
      className={className}
      src={safe}
      alt=""
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}

interface Props {
  preview: MessageLinkPreview;
  /** shown under the composer: a close button removes it from the draft */
  onDismiss?(): void;
  testId?: string;
}

export function LinkPreviewCard({ preview, onDismiss, testId = 'link-preview' }: Props) {
  const t = useT();
  const href = httpUrl(preview.url);
  const image =
    preview.type === 'youtube' ? (preview.thumbnail ?? preview.image) : (preview.image ?? preview.thumbnail);
  const site = preview.siteName ?? (href ? new URL(href).hostname : null);
  const title =
    preview.title ??
    (preview.type === 'youtube'
      ? t('room.linkPreview.youtube')
      : preview.type === 'instagram'
        ? t('room.linkPreview.instagram')
        : href);
  return (
    <div className={`link-preview link-preview-${preview.type}`} data-testid={testId} data-type={preview.type}>
      <PreviewImage src={image} className={preview.type === 'other' ? 'link-preview-thumb' : 'link-preview-media'} />
      <div className="link-preview-body">
        {site && (
          <span className="link-preview-site" data-testid="link-preview-site">
            {site}
          </span>
        )}
        {title &&
          (href ? (
            <a
              className="link-preview-title"
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="link-preview-title"
            >
              {title}
            </a>
          ) : (
            <span className="link-preview-title" data-testid="link-preview-title">
              {title}
            </span>
          ))}
        {preview.author && <span className="link-preview-author">{preview.author}</span>}
        {preview.description && (
          <span className="link-preview-description" data-testid="link-preview-description">
            {truncate(preview.description, DESCRIPTION_CHARS)}
          </span>
        )}
      </div>
      {onDismiss && (
        <button
          type="button"
          className="icon-button link-preview-close"
          onClick={onDismiss}
          aria-label={t('room.linkPreview.remove')}
          data-testid="link-preview-dismiss"
        >
          <CloseIcon size={14} />
        </button>
      )}
    </div>
  );
}
