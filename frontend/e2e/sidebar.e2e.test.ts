/** The sidebar in a real browser against embedded mode (`npm start`): one process, one port for A and B. */
import { registerSidebarScenario } from './sidebar.scenario.ts';
import { embeddedTarget } from './targets.ts';

registerSidebarScenario('embedded', () => embeddedTarget('sidebar'));
