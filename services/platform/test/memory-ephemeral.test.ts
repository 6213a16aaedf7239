import { MemoryEphemeralStore } from '../src/ephemeral/memory.ts';
import { ephemeralContract } from './ephemeral.contract.ts';

ephemeralContract('memory', async () => new MemoryEphemeralStore());
