// A Cloudflare Worker: both entries imported plainly, no init call (their `workerd` condition).
import * as full from 'agent-contract';
import * as protocol from 'agent-contract/protocol';
import { checks } from './checks.mjs';

export default {
  fetch: () => Response.json(checks(full, protocol)),
};
