// A Cloudflare Worker: both entries and their /init entries imported plainly, no init call
// (their `workerd` condition).
import * as full from 'agent-contract';
import * as protocol from 'agent-contract/protocol';
import * as fullInit from 'agent-contract/init';
import * as protocolInit from 'agent-contract/protocol/init';
import * as mcp from 'agent-contract/mcp';
import { checks } from './checks.mjs';

export default {
  fetch: () => Response.json(checks(full, protocol, fullInit, protocolInit, mcp)),
};
