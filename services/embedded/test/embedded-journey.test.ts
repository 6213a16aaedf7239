import { journeySuite } from '../../../test/suites/journey.suite.ts';
import { startEmbeddedTarget } from './target.ts';

journeySuite('embedded (npm start)', startEmbeddedTarget);
