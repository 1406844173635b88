/** File 5 of five that run at once on one engagekit-mock, each in a session of its own (scenario.ts). */
import { isolatedSession } from './scenario.ts';

isolatedSession(5);
