/**
 * Voice messages (docs/product/files.md F8): the microphone button starts recording (MediaRecorder, webm/opus),
 * While it records, the composer shows a recording bar (a pulsing dot, "Recording", the elapsed time) with Cancel,
 * which discards the recording, and Send, which stops and sends it as a file of purpose voice, with its duration.
 * Recording stops by itself (and sends) at 5 minutes (VOICE_MAX_MS, docs/protocol.md). A refused microphone shows
 * the spec's text.
 */
import { useEffect, useRef, useState } from 'react';
import { VOICE_MAX_MS } from '@ephemera/proto/client';
import { formatDuration } from '../../lib/fileUpload.ts';
import { MicIcon, StopIcon, TrashIcon } from '../ChatIcons.tsx';
import { t as translate, useT } from '../../i18n/i18n.ts';

interface Props {
  disabled: boolean;
  onRecorded(blob: Blob, durationMs: number): void;
  onError(message: string): void;
  /** the composer gives the recording bar its whole width while recording */
  onRecordingChange?(recording: boolean): void;
}

export function VoiceRecorder({ disabled, onRecorded, onError, onRecordingChange }: Props) {
  const t = useT();
  const [recording, setRecording] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  /** Cancel: the recorder stops and its chunks are dropped */
  const discard = useRef(false);
  const changeRecording = (on: boolean) => {
    setRecording(on);
    onRecordingChange?.(on);
  };
  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
      recorder.current?.stream.getTracks().forEach((track) => track.stop());
    },
    [],
  );

  const start = async () => {
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      onError(translate('room.voice.micDenied'));
      return;
    }
    const type = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'].find((mime) =>
      MediaRecorder.isTypeSupported(mime),
    );
    const rec = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    const chunks: Blob[] = [];
    const began = performance.now();
    rec.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    rec.onstop = () => {
      stream.getTracks().forEach((track) => track.stop());
      if (timer.current) clearInterval(timer.current);
      changeRecording(false);
      if (discard.current) return;
      const durationMs = Math.min(performance.now() - began, VOICE_MAX_MS);
      if (chunks.length) onRecorded(new Blob(chunks, { type: rec.mimeType || 'audio/webm' }), durationMs);
    };
    rec.start(1000);
    recorder.current = rec;
    discard.current = false;
    changeRecording(true);
    setElapsed(0);
    timer.current = setInterval(() => {
      const ms = performance.now() - began;
      setElapsed(ms);
      if (ms >= VOICE_MAX_MS && rec.state === 'recording') rec.stop();
    }, 250);
  };
  const stop = (send: boolean) => {
    discard.current = !send;
    if (recorder.current?.state === 'recording') recorder.current.stop();
  };

  return recording ? (
    <div className="voice-recording" data-testid="voice-recording">
      <span className="rec-dot" aria-hidden="true" />
      <span className="voice-recording-label" role="status">
        {t('room.voice.recording')}
      </span>
      <span className="voice-elapsed" data-testid="voice-elapsed">
        {formatDuration(elapsed)}
      </span>
      <button
        type="button"
        className="icon-button"
        onClick={() => stop(false)}
        aria-label={t('room.voice.cancel')}
        data-testid="voice-cancel"
      >
        <TrashIcon size={20} />
      </button>
      <button
        type="button"
        className="send-button"
        onClick={() => stop(true)}
        aria-label={t('room.voice.stopAndSend')}
        data-testid="voice-stop"
      >
        <StopIcon size={18} />
      </button>
    </div>
  ) : (
    <button
      type="button"
      className="icon-button"
      onClick={start}
      disabled={disabled}
      aria-label={t('room.voice.record')}
      data-testid="voice-record"
    >
      <MicIcon size={20} />
    </button>
  );
}
