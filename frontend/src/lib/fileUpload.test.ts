import { beforeAll, describe, it, expect } from 'vitest';
import { activateLocale } from '../i18n/i18n.ts';
import { precheck, formatDuration, formatSize, isRetryable, uploadFailureText } from './fileUpload.ts';

const file = (name: string, type: string, size: number) => ({ name, type, size }) as File;

beforeAll(() => activateLocale('en', ['room', 'roomside']));

describe('file precheck (before uploading; the server decides from the bytes)', () => {
  it("a file above the room's maxFileSize is too large (File Size Limit Exceeded), at the limit it goes", () => {
    expect(precheck(file('a.pdf', 'application/pdf', 10 * 1024 * 1024 + 1), 10)).toBe('too-large');
    expect(precheck(file('a.pdf', 'application/pdf', 10 * 1024 * 1024), 10)).toBeNull();
    expect(precheck(file('a.pdf', 'application/pdf', 50 * 1024 * 1024), 100)).toBeNull();
  });
  it("types outside the spec's list are refused (File type not supported), by type or extension", () => {
    expect(precheck(file('setup.exe', 'application/x-msdownload', 10), 10)).toBe('type');
    expect(precheck(file('page.html', 'text/html', 10), 10)).toBe('type');
    expect(precheck(file('pic.svg', 'image/svg+xml', 10), 10)).toBe('type');
    expect(precheck(file('notes.csv', '', 10), 10)).toBeNull();
    expect(precheck(file('letter.docx', 'application/octet-stream', 10), 10)).toBeNull();
  });
  it('formats sizes and durations', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatDuration(4200)).toBe('0:04');
    expect(formatDuration(300_000)).toBe('5:00');
  });
});

describe('a failed upload (files.md F10, F12)', () => {
  it("shows the spec's text, the server's after it when it names the limit; nothing for a cancel", () => {
    expect(uploadFailureText({ code: 'FILE_TOO_LARGE', message: 'The limit is 10 MB' })).toBe(
      'Failed to send file. File might be too large. The limit is 10 MB',
    );
    expect(uploadFailureText({ code: 'FILE_TOO_LARGE', message: '' })).toBe(
      'Failed to send file. File might be too large.',
    );
    expect(uploadFailureText({ code: 'UPLOAD_FAILED', message: 'Error uploading file' })).toBe('Error uploading file');
    expect(uploadFailureText({ code: 'ROOM_STORAGE_FULL', message: '' })).toBe('Upload failed');
    expect(uploadFailureText({ code: 'ABORTED', message: 'Upload cancelled' })).toBeNull();
  });
  it("says it in German, the server's words about the limit after the spec's", async () => {
    await activateLocale('de', ['room', 'roomside']);
    try {
      expect(uploadFailureText({ code: 'UPLOAD_FAILED', message: 'Error uploading file' })).toBe(
        'Fehler beim Hochladen der Datei',
      );
      expect(uploadFailureText({ code: 'ROOM_STORAGE_FULL', message: '' })).toBe('Hochladen fehlgeschlagen');
      expect(uploadFailureText({ code: 'FILE_TOO_LARGE', message: '' })).not.toContain('Failed');
      expect(formatSize(1536)).toBe('1,5 KB');
    } finally {
      await activateLocale('en', ['room', 'roomside']);
    }
  });
  it('offers Retry only when the request got no answer of the server (a refusal or a cancel would fail again)', () => {
    expect(isRetryable({ code: 'UPLOAD_FAILED' })).toBe(true);
    expect(isRetryable({ code: 'FILE_TOO_LARGE' })).toBe(false);
    expect(isRetryable({ code: 'FILE_TYPE_NOT_SUPPORTED' })).toBe(false);
    expect(isRetryable({ code: 'ABORTED' })).toBe(false);
  });
});
