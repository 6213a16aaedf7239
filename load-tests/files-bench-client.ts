/**
 * The files bench's client (files-bench.ts), run as its own process as a browser would be: uploads `source` once untimed, then RUNS
 * times as multipart/form-data, streamed from disk with backpressure (node:http), and prints the seconds of each
 * upload (first byte sent to the 201 answer read) as one JSON line. Arguments: url token channelId source runs.
 */
import fs from 'node:fs';
import http from 'node:http';

const [url, token, channelId, source, runs] = process.argv.slice(2) as [string, string, string, string, string];

function upload(): Promise<number> {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="channelId"\r\n\r\n${channelId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
        });
        res.on('end', () =>
          res.statusCode === 201
            ? resolve((performance.now() - t) / 1000)
            : reject(new Error(`${res.statusCode} ${body}`)),
        );
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = fs.createReadStream(source);
    file.pipe(req, { end: false });
    file.on('end', () => req.end(tail));
  });
}

const times: number[] = [];
await upload(); // a warm-up run, not timed (as the copy's and curl's)
for (let i = 0; i < Number(runs); i++) times.push(await upload());
console.log(JSON.stringify(times));
