/**
 * The strongest manifest check this machine allows: start a real etcd and kube-apiserver (built by
 * install-tools.sh from the k8s.io/kubernetes module), then send every rendered object as a create with
 * ?dryRun=All&fieldValidation=Strict. The API server runs its defaulting, validation and admission on each one and
 * stores nothing; an unknown or duplicate field, a wrong type or an invalid value is a 4xx with the server's reason.
 * No controller or kubelet runs: nothing is scheduled, so objects are judged on their own, as `kubectl apply
 * --dry-run=server` would judge them.
 *   node --import tsx deploy/ops/apiserver-dry-run.ts rendered.yaml [more.yaml ...]
 * Exit 0 when every object is accepted, 1 otherwise. Binaries from $EPHEMERA_TOOLS/bin (deploy/local/.tools/bin).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(process.env.EPHEMERA_TOOLS ?? path.join(here, '..', 'local', '.tools'), 'bin');
const NAMESPACE = process.env.DRY_RUN_NAMESPACE ?? 'ephemera';

interface Doc {
  file: string;
  kind: string;
  apiVersion: string;
  name: string;
  namespace?: string;
  body: string;
}

/** Split helm's output into objects without a YAML library: documents are separated by "---" lines, and the
 * top-level apiVersion/kind/metadata lines helm writes are unindented. */
function parseDocs(file: string): Doc[] {
  return fs
    .readFileSync(file, 'utf8')
    .split(/^---\s*$/m)
    .flatMap((body) => {
      const kind = /^kind:\s*(\S+)/m.exec(body)?.[1];
      const apiVersion = /^apiVersion:\s*(\S+)/m.exec(body)?.[1];
      if (!kind || !apiVersion) {
        if (body.replace(/^\s*#.*$/gm, '').trim())
          throw new Error(`${file}: a document without apiVersion/kind:\n${body.slice(0, 300)}`);
        return [];
      }
      const meta = /^metadata:\n((?:[ ]+.*\n?)*)/m.exec(body)?.[1] ?? '';
      const name = /^ {2}name:\s*(\S+)/m.exec(meta)?.[1] ?? '?';
      const namespace = /^ {2}namespace:\s*(\S+)/m.exec(meta)?.[1];
      return [{ file: path.basename(file), kind, apiVersion, name: name.replace(/^"|"$/g, ''), namespace, body }];
    });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net
      .createServer()
      .listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      })
      .on('error', reject);
  });
}

const children: ChildProcess[] = [];
function launch(name: string, args: string[], logFile: string): ChildProcess {
  const exe = path.join(bin, name);
  if (!fs.existsSync(exe)) throw new Error(`${exe} is missing: run bash deploy/ops/install-tools.sh kube`);
  const log = fs.openSync(logFile, 'a');
  const child = spawn(exe, args, { stdio: ['ignore', log, log] });
  children.push(child);
  return child;
}

function stopAll(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
}

async function main(): Promise<number> {
  const files = process.argv.slice(2);
  if (files.length === 0) throw new Error('usage: apiserver-dry-run.ts rendered.yaml...');
  const docs = files.flatMap(parseDocs);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ephemera-apiserver-'));
  const [etcdClient, etcdPeer, apiPort] = [await freePort(), await freePort(), await freePort()];
  const token = randomBytes(16).toString('hex');
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  fs.writeFileSync(path.join(work, 'sa.key'), privateKey, { mode: 0o600 });
  fs.writeFileSync(path.join(work, 'tokens.csv'), `${token},admin,admin,system:masters\n`, { mode: 0o600 });

  const started = Date.now();
  const etcd = launch(
    'etcd',
    [
      '--data-dir',
      path.join(work, 'etcd'),
      '--log-level',
      'error',
      '--listen-client-urls',
      `http://127.0.0.1:${etcdClient}`,
      '--advertise-client-urls',
      `http://127.0.0.1:${etcdClient}`,
      '--listen-peer-urls',
      `http://127.0.0.1:${etcdPeer}`,
      '--initial-advertise-peer-urls',
      `http://127.0.0.1:${etcdPeer}`,
      '--initial-cluster',
      `default=http://127.0.0.1:${etcdPeer}`,
    ],
    path.join(work, 'etcd.log'),
  );
  // --endpoint-reconciler-type=none: the default refuses a loopback advertise address.
  const apiserver = launch(
    'kube-apiserver',
    [
      `--etcd-servers=http://127.0.0.1:${etcdClient}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      '--endpoint-reconciler-type=none',
      `--secure-port=${apiPort}`,
      `--cert-dir=${path.join(work, 'certs')}`,
      `--token-auth-file=${path.join(work, 'tokens.csv')}`,
      '--authorization-mode=RBAC',
      '--service-account-issuer=https://kubernetes.default.svc',
      `--service-account-key-file=${path.join(work, 'sa.key')}`,
      `--service-account-signing-key-file=${path.join(work, 'sa.key')}`,
      '--service-cluster-ip-range=10.96.0.0/24',
    ],
    path.join(work, 'apiserver.log'),
  );

  const call = (method: string, urlPath: string, body?: string, type = 'application/yaml') =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port: apiPort,
          path: urlPath,
          method,
          // A just-started server on loopback with the self-signed certificate it generated in cert-dir.
          rejectUnauthorized: false,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            ...(body ? { 'content-type': type } : {}),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const deadline = Date.now() + 60_000;
  for (;;) {
    for (const [name, c] of [
      ['etcd', etcd],
      ['kube-apiserver', apiserver],
    ] as const) {
      if (c.exitCode !== null)
        throw new Error(
          `${name} exited (${c.exitCode}); log: ${path.join(work, `${name === 'etcd' ? 'etcd' : 'apiserver'}.log`)}`,
        );
    }
    const ready = await call('GET', '/readyz').catch(() => null);
    if (ready?.status === 200) break;
    if (Date.now() > deadline)
      throw new Error(`kube-apiserver not ready in 60 s; log: ${path.join(work, 'apiserver.log')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const version = JSON.parse((await call('GET', '/version')).text).gitVersion;
  console.log(`apiserver-dry-run: kube-apiserver ${version} + etcd ready in ${Date.now() - started} ms`);

  const ns = await call(
    'POST',
    '/api/v1/namespaces',
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }),
    'application/json',
  );
  if (ns.status !== 201) throw new Error(`cannot create namespace ${NAMESPACE}: ${ns.status} ${ns.text}`);

  // kind -> REST resource, from the server's own discovery documents.
  const discovery = new Map<string, { plural: string; namespaced: boolean }>();
  const resourceOf = async (apiVersion: string, kind: string) => {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    if (!discovery.has(`${apiVersion}/`)) {
      const res = await call('GET', base);
      if (res.status !== 200) throw new Error(`the server does not serve ${apiVersion} (${res.status})`);
      for (const r of JSON.parse(res.text).resources as { name: string; kind: string; namespaced: boolean }[]) {
        if (!r.name.includes('/'))
          discovery.set(`${apiVersion}/${r.kind}`, { plural: r.name, namespaced: r.namespaced });
      }
      discovery.set(`${apiVersion}/`, { plural: '', namespaced: false });
    }
    const found = discovery.get(`${apiVersion}/${kind}`);
    if (!found) throw new Error(`the server has no kind ${kind} in ${apiVersion}`);
    return { base, ...found };
  };

  let failed = 0;
  for (const doc of docs) {
    const label = `${doc.file}: ${doc.kind} ${doc.name}`;
    try {
      const r = await resourceOf(doc.apiVersion, doc.kind);
      const url = `${r.base}/${r.namespaced ? `namespaces/${doc.namespace ?? NAMESPACE}/` : ''}${r.plural}?dryRun=All&fieldValidation=Strict`;
      const res = await call('POST', url, doc.body);
      if (res.status === 201 || res.status === 200) continue;
      failed++;
      const message = (() => {
        try {
          return JSON.parse(res.text).message as string;
        } catch {
          return res.text;
        }
      })();
      console.error(`REJECTED ${label}: ${res.status} ${message}`);
    } catch (err) {
      failed++;
      console.error(`REJECTED ${label}: ${(err as Error).message}`);
    }
  }
  console.log(
    `apiserver-dry-run: ${docs.length - failed} of ${docs.length} objects accepted (dryRun=All, fieldValidation=Strict) in ${Date.now() - started} ms`,
  );
  stopAll();
  if (!failed && !process.env.EPHEMERA_KEEP_APISERVER_LOGS) fs.rmSync(work, { recursive: true, force: true });
  return failed ? 1 : 0;
}

process.on('exit', stopAll);
main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`apiserver-dry-run: ${(err as Error).message}`);
    stopAll();
    process.exit(1);
  },
);
