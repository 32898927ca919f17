/**
 * What a plugin module imports from Folio: the plugin's own shape, and the pieces Folio's routes are
 * declared with, so a plugin's routes get authorization, validation, the envelope and OpenAPI alike.
 */
export { definePlugin } from './types.ts';
export type { Actor, EntrySnapshot, HookContext, HookEvents, MediaSnapshot, PluginDefinition, TransactionalHookContext } from './types.ts';
export { access, defineOperation } from '../core/operation.ts';
export { defineRoute } from '../http/route.ts';
export { AppError, notFound, validationError as refuseSave } from '../core/errors.ts';
