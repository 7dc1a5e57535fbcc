// JSON Schema conformance through the package's public API, for the JSON Schema Test Suite and
// the protocol schema test: `schemaSuiteCheck(JSON text of {schema, instances, resources})`
// defines a tool whose inputSchema is the schema (defineToolJson, with the documents as the tool's
// `resources`) and validates each instance, as JSON text, with validateToolInputJson: one boolean
// per instance (SCHEMA_MISMATCH is false). A tool's inputSchema is an object schema whose root
// type is "object" or absent; any other schema (a boolean, a root type such as "integer") is
// served as a resource and the inputSchema is a `$ref` to it, as a tool reaches a shared document.
// Any other error fails the whole group. Documents and instances are read under the limits'
// ceilings, so no case is judged by a size limit rather than by its schema.
import { defineToolJson, safeValidateToolInputJson } from 'agent-contract';

const SCHEMA_URI = 'https://conformance.invalid/schema.json';
const MiB64 = 64 * 1024 * 1024;
const CEILINGS = { maxBytes: MiB64, maxDepth: 512, maxStringBytes: MiB64, maxArrayLength: MiB64, maxObjectMembers: MiB64 };

function isToolRoot(schema) {
  return schema !== null && typeof schema === 'object' && !Array.isArray(schema) && (schema.type === undefined || schema.type === 'object');
}

// `toolOptions`: defineToolJson's options beyond the ceilings (`{formats: 'assert'}` for the
// optional format tests).
export function schemaSuiteCheck(text, toolOptions = {}) {
  const { schema, instances, resources = {} } = JSON.parse(text);
  const direct = isToolRoot(schema);
  const tool = defineToolJson(JSON.stringify({
    name: 'conformance_case',
    description: 'One group of a JSON Schema conformance suite.',
    permission: 'read',
    inputSchema: direct ? schema : { $ref: SCHEMA_URI },
    resources: direct ? resources : { ...resources, [SCHEMA_URI]: schema },
  }), { ...CEILINGS, ...toolOptions });
  try {
    return instances.map((instance) => {
      const outcome = safeValidateToolInputJson(tool, JSON.stringify(instance), CEILINGS);
      if (outcome.ok) return true;
      if (outcome.error.code === 'SCHEMA_MISMATCH') return false;
      throw outcome.error;
    });
  } finally {
    tool.free();
  }
}
