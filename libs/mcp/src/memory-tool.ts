import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { toolArguments } from './arguments';
import { toolError, toolResult, type ToolAnswer } from './tool-result';
import type { ToolScope } from './tool-scope';

/** A tool as it is written: what it is for, its arguments, and what it does with them. */
export interface ToolSpec<S extends z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  /** When to use it, what comes back, its limits: an assistant decides from this alone. */
  readonly description: string;
  /** Each argument with its description; the tool takes no other. */
  readonly arguments: S;
  readonly annotations: ToolAnnotations;
  run(args: z.output<z.ZodObject<S>>, scope: ToolScope): Promise<ToolAnswer>;
}

/** A tool ready to be installed on a server. */
export interface MemoryTool {
  readonly name: string;
  install(server: McpServer, scope: ToolScope): void;
}

/**
 * A tool whose arguments are checked by the SDK against its schema before it runs (a bad one is
 * an `isError` result naming it), and whose every failure while running becomes an `isError`
 * result too (toolError): nothing it does can end the session.
 */
export function defineTool<S extends z.ZodRawShape>(spec: ToolSpec<S>): MemoryTool {
  const names = Object.keys(spec.arguments);
  // As a plain schema: the SDK's overloads cannot tell a generic zod object from a raw shape.
  const inputSchema: z.ZodType = toolArguments(spec.arguments);
  return {
    name: spec.name,
    install(server, scope) {
      server.registerTool(
        spec.name,
        {
          title: spec.title,
          description: spec.description,
          inputSchema,
          annotations: { ...spec.annotations, openWorldHint: false },
        },
        async (args) => {
          try {
            return toolResult(await spec.run(args as z.output<z.ZodObject<S>>, scope));
          } catch (error) {
            return toolError(error, names);
          }
        },
      );
    },
  };
}
