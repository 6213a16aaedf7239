/** The sidebar in a real browser against the distributed topology behind nginx, A on gateway-1 and B on gateway-2. */
import { registerSidebarScenario } from './sidebar.scenario.ts';
import { distributedTarget } from './targets.ts';

registerSidebarScenario('distributed (A on gateway-1, B on gateway-2)', () => distributedTarget('sidebar'));
