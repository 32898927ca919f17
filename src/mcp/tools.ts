import { contentTools } from '../content/tools.ts';
import { mediaTools } from '../media/tools.ts';
import { menuTools } from '../menus/tools.ts';
import { redirectTools } from '../redirects/tools.ts';
import { commentTools } from '../comments/tools.ts';
import { taxonomyTools } from '../taxonomies/tools.ts';
import { revisionTools } from '../revisions/tools.ts';
import { schemaTools } from '../schema/tools.ts';
import { searchTools } from '../search/tools.ts';
import type { Tool } from './tool.ts';

/** Every MCP tool; each area adds its list here. */
export const mcpTools: readonly Tool[] = [...contentTools, ...schemaTools, ...mediaTools, ...searchTools, ...taxonomyTools, ...menuTools, ...revisionTools, ...redirectTools, ...commentTools];
