// The projections typed as the real clients' own tool types (pinned in package-lock.json): a
// strict compile fails if a projection stops fitting OpenAI Chat Completions / Responses,
// Anthropic Messages, MCP or Gemini (@google/genai).
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import type { Tool as AnthropicTool } from '@anthropic-ai/sdk/resources/messages';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { FunctionDeclaration, Tool as GeminiTool, ToolListUnion } from '@google/genai';
import { createRegistry, defineTool, toAnthropicTools, toGeminiTools, toMcpTools, toOpenAIResponsesTools, toOpenAITools } from 'agent-contract';

const registry = createRegistry([
  defineTool({ name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object' }, permission: 'read' }),
]);

export const chat: ChatCompletionTool[] = toOpenAITools(registry);
export const responses: FunctionTool[] = toOpenAIResponsesTools(registry);
export const anthropic: AnthropicTool[] = toAnthropicTools(registry);
export const mcp: McpTool[] = toMcpTools(registry);
export const mcpOne: McpTool = toMcpTools(registry)[0];
// Gemini: the request's `tools` list, a `Tool`, and one `FunctionDeclaration`.
export const gemini: ToolListUnion = toGeminiTools(registry);
export const geminiTools: GeminiTool[] = toGeminiTools(registry);
export const geminiDeclaration: FunctionDeclaration = toGeminiTools(registry)[0].functionDeclarations[0];
