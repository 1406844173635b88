import { forEveryStore } from '../every-store.ts';
import { describeStoreConformance } from './conformance.ts';

forEveryStore((_, makeStore) => describeStoreConformance('store conformance', makeStore));
