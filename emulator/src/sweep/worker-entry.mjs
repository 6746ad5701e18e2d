// Worker threads do not inherit the CLI's tsx loader: register it, then load the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
