/**
 * Handlers for the blocks whose meaning is not all in their HTML: containers that become typed
 * blocks, blocks whose content lives in their attributes, and blocks WordPress renders on the server.
 */
import type { FlowWriter } from './flow.ts';
import type { ParsedBlock } from './gutenberg.ts';
import type { Shape } from './text.ts';

export type BlockHandler = (block: ParsedBlock, writer: FlowWriter, shape: Shape) => void;

export const blockHandlers: Record<string, BlockHandler> = {};
