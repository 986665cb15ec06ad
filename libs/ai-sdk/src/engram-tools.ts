import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EngramError, EngramInvalidArgumentError, type EngramClient } from '@engram/client';
import type { MemoryTool } from '@engram/mcp/src/memory-tool';
import { toolScope, type MemoryRpcCall, type ToolScope } from '@engram/mcp/src/tool-scope';
import { contextBuild } from '@engram/mcp/src/tools/context.tools';
import { memoryBrowse, memoryForget, memorySave, memorySearch } from '@engram/mcp/src/tools/memory.tools';
import { isRpcErrorCode, RpcError } from '@engram/messaging';
import type { FlexibleSchema, Tool } from './ai-sdk-types';

/** The memory tools, by the names Engram's MCP server gives them. */
export const ENGRAM_TOOL_NAMES = [
  'memory_search',
  'memory_save',
  'memory_forget',
  'memory_browse',
  'context_build',
] as const;

export type EngramToolName = (typeof ENGRAM_TOOL_NAMES)[number];

/** A memory tool as the AI SDK calls it: its arguments in, the text the model reads out. */
export type EngramTool = Tool<Record<string, unknown>, string>;

export interface EngramToolsOptions<N extends EngramToolName = EngramToolName> {
  /** Whose memory the tools read and write; default the EngramClient's agent. */
  readonly agent?: string;
  /** The conversation memory_browse and context_build read when the model names none. */
  readonly sessionKey?: string;
  /** The tools to give the model; default all of ENGRAM_TOOL_NAMES. */
  readonly include?: readonly N[];
}

/** Engram's MCP tools: the same definitions serve MCP clients and the AI SDK. */
const MCP_TOOLS: readonly MemoryTool[] = [memorySearch, memorySave, memoryForget, memoryBrowse, contextBuild];

/** Arguments that name which conversation (or where in one) a call reads. */
const PLACE_ARGUMENTS = ['sessionKey', 'conversationId', 'aroundMessageId', 'cursor'];

/**
 * Engram's memory tools for `generateText({ tools })`: Engram's MCP tools themselves (names,
 * descriptions for the model, zod input schemas, answers as compact text with refs like
 * `fact:6`), run through `engram`. A failed call is the tool's error, worded for the model.
 */
export function engramTools<N extends EngramToolName = EngramToolName>(
  engram: EngramClient,
  options: EngramToolsOptions<N> = {},
): Record<N, EngramTool> {
  const agent = options.agent ?? engram.agent;
  if (!agent) throw new Error('engramTools needs an agent: pass { agent } or give the EngramClient one');
  // The tenant is the client's (or its API key's); the tools never name one.
  const scope = toolScope({ tenant: '', agent, call: callThrough(engram) });
  const include: readonly string[] = options.include ?? ENGRAM_TOOL_NAMES;
  const tools = MCP_TOOLS.filter((tool) => include.includes(tool.name)).map(
    (tool) => [tool.name, aiSdkTool(tool, scope, options.sessionKey)] as const,
  );
  return Object.fromEntries(tools) as Record<N, EngramTool>;
}

/** Engram's RPCs through the client; a failure as the RpcError the MCP tools explain to the model. */
function callThrough(engram: EngramClient): MemoryRpcCall {
  return async (spec, request, { timeoutMs }) => {
    try {
      return await engram.call(spec, request, { timeoutMs });
    } catch (error) {
      throw asRpcError(error);
    }
  };
}

/** An EngramError of an RPC's code as an RpcError (its field violations kept); any other error as it is. */
function asRpcError(error: unknown): unknown {
  if (!(error instanceof EngramError) || !isRpcErrorCode(error.code)) return error;
  const violations = error instanceof EngramInvalidArgumentError ? error.fieldViolations : [];
  return new RpcError(error.code, error.reason, {
    ...error.details,
    ...(violations.length > 0 && { fieldViolations: violations }),
  });
}

/** What an MCP tool registers: how it is described, and what runs it. */
interface Registration {
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
}
type McpToolHandler = (args: Record<string, unknown>) => Promise<CallToolResult>;

/**
 * An MCP tool as an AI SDK tool: the tool installs itself on an MCP server, and this stand-in's
 * registerTool (all it calls) keeps what it registers. A tool that takes a sessionKey reads the
 * given session when the model names no conversation, and its description says so.
 */
function aiSdkTool(mcpTool: MemoryTool, scope: ToolScope, sessionKey: string | undefined): EngramTool {
  let tool: EngramTool | undefined;
  const server = {
    registerTool(_name: string, registration: Registration, run: McpToolHandler) {
      const session = takesSessionKey(registration.inputSchema) ? sessionKey : undefined;
      tool = {
        title: registration.title,
        description:
          session === undefined
            ? registration.description
            : `${registration.description} Here, when no conversation is named, it is the current one: sessionKey ${JSON.stringify(session)}.`,
        inputSchema: registration.inputSchema as FlexibleSchema<Record<string, unknown>>,
        execute: async (args) =>
          answerOf(await run(session === undefined ? args : inConversation(args, session))),
      };
    },
  };
  mcpTool.install(server as unknown as McpServer, scope);
  if (!tool) throw new Error(`${mcpTool.name} registered no tool`);
  return tool;
}

/** The schema is an object schema with a sessionKey argument. */
function takesSessionKey(schema: unknown): boolean {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && 'sessionKey' in shape;
}

/** The arguments, reading the session when they name no place of their own. */
function inConversation(args: Record<string, unknown>, sessionKey: string): Record<string, unknown> {
  return PLACE_ARGUMENTS.some((name) => args[name] !== undefined) ? args : { ...args, sessionKey };
}

/** The text the model reads; an MCP error result is thrown, so the AI SDK reports it as the tool's error. */
function answerOf(result: CallToolResult): string {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  if (result.isError) throw new Error(text);
  return text;
}
