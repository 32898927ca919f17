import type { Tool as ToolListing, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Context } from '../core/context.ts';
import { runOperation, type AnyOperation, type Operation, type RunOptions } from '../core/operation.ts';
import { parseInput } from '../core/validate.ts';

/** The Flags column of the spec's tool tables. */
export type ToolFlag = 'read-only' | 'destructive';

/**
 * An MCP tool: a thin adapter over one operation. The operation's access rule is the tool's scope and
 * minimum role; `input` is the tool's arguments, which `toInput` maps onto the operation's input.
 */
export interface ToolSpec<Args extends z.ZodObject, Input, Output> {
  /** The spec's tool name, e.g. `content_get`. */
  name: string;
  /** A short human-readable name, shown by clients. */
  title: string;
  description: string;
  operation: Operation<Input, Output>;
  input: Args;
  toInput?: (args: z.output<Args>) => Input;
  flag?: ToolFlag;
}

/** A tool with its types erased, as the registry and the server hold it. */
export interface Tool {
  name: string;
  operation: AnyOperation;
  input: z.ZodObject;
  /** Runs the operation for `ctx`: access first, then the arguments parsed and mapped to its input. */
  call(ctx: Context, args: unknown, options: RunOptions): Promise<unknown>;
  /** The `tools/list` entry, built once when the tool is defined. */
  listing: ToolListing;
}

/** `limit` of a list tool: a JSON integer in the range of the spec's table, with its default (mcp.md §8). */
export function limitArgument(max: number, defaultValue: number) {
  return z.number().int().min(1).max(max).default(defaultValue).describe(`How many items, 1-${max} (default ${defaultValue})`);
}

/** Without `toInput` the parsed arguments are the operation's input. */
export function defineTool<Args extends z.ZodObject, Output>(spec: ToolSpec<Args, z.output<Args>, Output>): Tool;
export function defineTool<Args extends z.ZodObject, Input, Output>(
  spec: ToolSpec<Args, Input, Output> & { toInput: (args: z.output<Args>) => Input },
): Tool;
export function defineTool<Args extends z.ZodObject, Input, Output>(spec: ToolSpec<Args, Input, Output>): Tool {
  // Without `toInput`, the overloads above made sure the parsed arguments are the operation's input.
  const toInput = spec.toInput ?? ((args: z.output<Args>) => args as unknown as Input);
  return {
    name: spec.name,
    operation: spec.operation,
    input: spec.input,
    call: (ctx, args, options) => runOperation(spec.operation, ctx, () => toInput(parseInput(spec.input, args, 'arguments')), options),
    listing: {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: argumentsJsonSchema(spec.input),
      annotations: annotations(spec.title, spec.flag),
    },
  };
}

/**
 * Draft-07 is what MCP clients validate against most widely; strict zod objects become
 * `additionalProperties: false`, so a client sees the same rules the server applies.
 */
function argumentsJsonSchema(input: z.ZodObject): ToolListing['inputSchema'] {
  // An object schema's properties are schemas (objects), never the boolean form.
  return z.toJSONSchema(input, { io: 'input', target: 'draft-7', unrepresentable: 'any' }) as ToolListing['inputSchema'];
}

/** MCP assumes a tool that is not read-only is destructive, so plain writes say they are not. */
function annotations(title: string, flag: ToolFlag | undefined): ToolAnnotations {
  if (flag === 'read-only') return { title, readOnlyHint: true };
  return { title, readOnlyHint: false, destructiveHint: flag === 'destructive' };
}
