// Deno and Bun: both entries and their /init entries imported plainly, no init call; the
// verdicts on stdout.
import * as full from 'agent-contract';
import * as protocol from 'agent-contract/protocol';
import * as fullInit from 'agent-contract/init';
import * as protocolInit from 'agent-contract/protocol/init';
import * as mcp from 'agent-contract/mcp';
import { checks } from './checks.mjs';

console.log(JSON.stringify(checks(full, protocol, fullInit, protocolInit, mcp)));
