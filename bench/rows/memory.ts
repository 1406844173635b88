import type { Bench } from '../lib.ts';

export const benches: Bench[] = [];
