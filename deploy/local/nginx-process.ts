/**
 * One nginx process of the local stack (the HTTP ingress, ingress.ts, and the layer-4 entry, layer4.ts): started in
 * the foreground with its configuration and run directory, ready once `url`/healthz answers (the ingress answers it
 * itself, the layer-4 entry passes it to a gateway), stopped gracefully (SIGQUIT lets open connections finish).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface NginxProcess {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

export async function runNginx(opts: {
  runDir: string;
  conf: string;
  /** the log file's name in runDir (nginx's own stdout and stderr) */
  log: string;
  /** nginx's error log in runDir, named when it exits early */
  errorLog: string;
  port: number;
  what: string;
}): Promise<NginxProcess> {
  const log = fs.openSync(path.join(opts.runDir, opts.log), 'a');
  const child = spawn('nginx', ['-c', opts.conf, '-p', opts.runDir, '-g', 'daemon off;'], {
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${opts.port}`;
  const end = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${opts.what} exited with ${child.exitCode} (see ${path.join(opts.runDir, opts.errorLog)})`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* starting */
    }
    if (Date.now() > end) throw new Error(`${opts.what} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    async stop() {
      if (child.exitCode !== null) return;
      await new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGQUIT');
        setTimeout(r, 5000);
      });
    },
  };
}
