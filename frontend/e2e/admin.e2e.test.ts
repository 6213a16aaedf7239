/**
 * Room administration in a real browser against embedded mode (`npm start`): one process, one port. The tier
 * changes go through the room service's internal change-tier in the same process (EmbeddedApp.rooms), as billing
 * will call it.
 */
import { embeddedTarget } from './targets.ts';
import { registerAdminScenario } from './admin.scenario.ts';

registerAdminScenario('embedded', () => embeddedTarget('admin'));
