/** (c) A backup of the projected read models through the HTTP routes: generate, download, import; time and memory. */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ADMIN_API } from '@ephemera/proto';

/** (c): generate, download, import; time and the peak RSS growth of each */
export async function backupRoundTrip(url: string, headers: Record<string, string>, dataDir: string): Promise<void> {
  // RSS includes garbage not yet collected; the heap's live size after each GC is what the stream itself holds
  const peakOf = async <T>(
    fn: () => Promise<T>,
  ): Promise<{ value: T; seconds: number; peakMb: number; heapMb: number }> => {
    global.gc?.();
    const base = process.memoryUsage();
    let peak = base.rss;
    let heap = base.heapUsed;
    const timer = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      heap = Math.max(heap, m.heapUsed);
    }, 20);
    const t = performance.now();
    try {
      const value = await fn();
      return {
        value,
        seconds: (performance.now() - t) / 1000,
        peakMb: (peak - base.rss) / 1048576,
        heapMb: (heap - base.heapUsed) / 1048576,
      };
    } finally {
      clearInterval(timer);
    }
  };
  const generated = await peakOf(async () => {
    const res = await fetch(url + ADMIN_API.backupGenerate, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    return (await res.json()) as { backup: { size: number; downloadUrl: string } };
  });
  const file = path.join(dataDir, 'bench-backup.json');
  const downloaded = await peakOf(async () => {
    const res = await fetch(url + generated.value.backup.downloadUrl, { headers });
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), fs.createWriteStream(file));
  });
  const imported = await peakOf(async () => {
    const form = new FormData();
    form.append('backup', await fs.openAsBlob(file), 'bench-backup.json');
    const res = await fetch(url + ADMIN_API.backupImport, { method: 'POST', headers, body: form });
    return {
      status: res.status,
      body: (await res.json()) as { rows?: number; replayedEvents?: number; message?: string },
    };
  });
  const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
  console.log(`admin-analytics bench (c): backup of the read models above, file ${mb(generated.value.backup.size)}`);
  const mem = (x: { peakMb: number; heapMb: number }) =>
    `RSS peak +${x.peakMb.toFixed(0)} MB, heap peak +${x.heapMb.toFixed(0)} MB`;
  console.log(`  generate  ${generated.seconds.toFixed(1)} s, ${mem(generated)}`);
  console.log(`  download  ${downloaded.seconds.toFixed(1)} s, ${mem(downloaded)}`);
  console.log(
    `  import    ${imported.seconds.toFixed(1)} s, ${mem(imported)}; status ${imported.value.status}, ` +
      `${imported.value.body.rows?.toLocaleString('en') ?? imported.value.body.message} rows restored, ${imported.value.body.replayedEvents ?? '-'} events replayed`,
  );
}
