// Loaded with `--import` into the worker threads of erx run from its TypeScript sources (tests,
// `tsx`; see startThread in ./background-thread.ts). Node 20 applies neither the parent's loader
// hooks nor its `--import tsx` to a worker, so each registers tsx before its module loads. The
// build never loads this file: its workers are compiled JavaScript.
import { register } from 'tsx/esm/api';

register();
