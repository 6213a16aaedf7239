/**
 * A message's file (docs/protocol.md Files): an image (its thumbnail, the full image on click), a video, a voice
 * message (player and duration), or a document (icon, name, size, download). Elements load signed links from the
 * link route: an <img> or <video> cannot send the bearer token. The caption is the message text, shown beside it.
 */
import { useEffect, useState } from 'react';
import type { MessageFile } from '@ephemera/proto';
import { fileLink, formatDuration, formatSize } from '../../lib/fileUpload.ts';
import { FileIcon } from '../Icons.tsx';
import { useT } from '../../i18n/i18n.ts';

interface Props {
  file: MessageFile;
  workspaceId: string;
  userToken: string;
}

export function MessageAttachment({ file, workspaceId, userToken }: Props) {
  const t = useT();
  const [link, setLink] = useState<{ url: string; thumbnailUrl: string | null } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    fileLink(workspaceId, file.id, userToken).then(
      (l) => {
        if (!live) return;
        if (l) setLink(l);
        else setFailed(true);
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [workspaceId, file.id, userToken]);

  if (failed)
    return (
      <p className="attachment-gone" data-testid="attachment-gone">
        {t('room.file.gone')}
      </p>
    );
  if (!link)
    return (
      <div className="attachment-loading" aria-busy="true" data-testid="attachment-loading">
        {file.name}
      </div>
    );
  switch (file.kind) {
    case 'image':
      return (
        <a
          href={link.url}
          target="_blank"
          rel="noopener noreferrer"
          className="attachment-image"
          data-testid="attachment-image"
        >
          <img
            src={link.thumbnailUrl ?? link.url}
            alt={file.caption ?? file.name}
            width={file.width ?? undefined}
            height={file.height ?? undefined}
            loading="lazy"
          />
        </a>
      );
    case 'video':
      return (
        <video className="attachment-video" src={link.url} controls preload="metadata" data-testid="attachment-video" />
      );
    case 'voice':
      return (
        <div className="attachment-voice" data-testid="attachment-voice">
          <audio src={link.url} controls preload="metadata" aria-label={t('room.file.voiceMessage')} />
          {file.durationMs !== null && (
            <span className="voice-duration" data-testid="voice-duration">
              {formatDuration(file.durationMs)}
            </span>
          )}
        </div>
      );
    default:
      return (
        <a href={link.url} download={file.name} className="attachment-file" data-testid="attachment-file">
          <FileIcon size={18} /> <span className="attachment-name">{file.name}</span>{' '}
          <span className="attachment-size" data-testid="attachment-size">
            {formatSize(file.size)}
          </span>
        </a>
      );
  }
}
