import { roomExperienceSuites } from '../../../test/suites/room-experience.ts';
import { startEmbeddedTarget } from './target.ts';

roomExperienceSuites('embedded (npm start)', startEmbeddedTarget);
