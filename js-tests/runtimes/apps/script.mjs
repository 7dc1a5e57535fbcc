// Deno and Bun: both entries imported plainly, no init call; the verdicts on stdout.
import * as full from 'agent-contract';
import * as protocol from 'agent-contract/protocol';
import { checks } from './checks.mjs';

console.log(JSON.stringify(checks(full, protocol)));
