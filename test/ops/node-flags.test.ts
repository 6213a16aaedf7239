/**
 * deploy/node-flags.ts's V8 flags reach every service process however it is run: this Node accepts each flag (an
 * upgrade that drops one fails here, not at a pod's start), the image's CMD passes exactly these, docker-compose.yml
 * and the chart keep the image's command for the services, and the local stack spreads the same list.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVICE_NODE_FLAGS } from '../../deploy/node-flags.ts';
import { read } from './code-facts.ts';

const nodeAccepts = (flags: readonly string[]) =>
  spawnSync(process.execPath, [...flags, '-e', 'process.exit(0)'], { encoding: 'utf8' });

describe("the service processes' V8 flags", () => {
  it('are accepted by this Node (and a flag it does not know is refused)', () => {
    expect(SERVICE_NODE_FLAGS.length).toBeGreaterThan(0);
    for (const flag of SERVICE_NODE_FLAGS) {
      const r = nodeAccepts([flag]);
      expect({ flag, status: r.status, stderr: r.stderr }).toEqual({ flag, status: 0, stderr: '' });
    }
    expect(nodeAccepts(['--no-such-v8-flag-here']).status).not.toBe(0);
  });

  it("are the ones the service image's CMD passes to node, before the entry point", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read('deploy/docker/Dockerfile.service'))?.[1];
    expect(cmd).toBeDefined();
    const shell = (JSON.parse(cmd!) as string[]).at(-1)!;
    const argv = /exec node (.*) --import tsx services\/\$\{SERVICE\}\/src\/main\.ts$/.exec(shell)?.[1]?.split(/\s+/);
    expect(argv).toEqual([...SERVICE_NODE_FLAGS]);
  });

  it("reach the services in docker-compose.yml and the chart (neither overrides the image's command)", () => {
    const compose = parse(read('docker-compose.yml')) as {
      services: Record<string, { build?: unknown; command?: unknown; entrypoint?: unknown }>;
    };
    const built = Object.entries(compose.services).filter(([, s]) => s.build);
    expect(built.length).toBeGreaterThanOrEqual(6);
    for (const [name, s] of built)
      expect({ name, command: s.command, entrypoint: s.entrypoint }).toEqual({
        name,
        command: undefined,
        entrypoint: undefined,
      });
    expect(read('charts/ephemera/templates/services.yaml')).not.toMatch(/^\s*(command|args):/m);
  });

  it('are spread into every process the local stack starts', () => {
    const stack = read('deploy/local/stack.ts');
    expect(stack).toMatch(/import \{ SERVICE_NODE_FLAGS \} from '\.\.\/node-flags\.ts'/);
    expect(stack).toMatch(/spawn\(process\.execPath, \[\.\.\.flags,/);
    expect(stack).toMatch(/const flags = \[\.\.\.SERVICE_NODE_FLAGS,/);
  });
});
