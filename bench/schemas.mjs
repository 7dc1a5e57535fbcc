// Zod 4 and Ajv 8 schemas equivalent to the action protocol, as far as each library can say it:
// a closed union on `type` of message / tool_call / finish / request_approval; every string
// field non-blank (`/\S/`: JS whitespace, the set String.prototype.trim removes); `input`
// required but any value; optional `schemaVersion` equal to 1; unknown fields dropped (Zod
// strips them into a new object; Ajv only validates and returns the input as is).

import { z } from 'zod';
import Ajv from 'ajv';

const text = z.string().regex(/\S/);
const version = { schemaVersion: z.literal(1).optional() };

export const zodAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), content: text, ...version }),
  z.object({ type: z.literal('tool_call'), callId: text, tool: text, input: z.unknown(), ...version }),
  z.object({ type: z.literal('finish'), summary: text, ...version }),
  z.object({
    type: z.literal('request_approval'),
    requestId: text,
    capability: text,
    resource: text,
    reason: text,
    ...version,
  }),
]);

const str = { type: 'string', pattern: '\\S' };
const branch = (type, fields) => ({
  type: 'object',
  properties: {
    type: { const: type },
    schemaVersion: { const: 1 },
    ...Object.fromEntries(fields.map((f) => [f, f === 'input' ? {} : str])),
  },
  required: ['type', ...fields],
});

export const ajvSchema = {
  type: 'object',
  discriminator: { propertyName: 'type' },
  required: ['type'],
  oneOf: [
    branch('message', ['content']),
    branch('tool_call', ['callId', 'tool', 'input']),
    branch('finish', ['summary']),
    branch('request_approval', ['requestId', 'capability', 'resource', 'reason']),
  ],
};

export const ajvAction = new Ajv({ discriminator: true, allErrors: false }).compile(ajvSchema);
