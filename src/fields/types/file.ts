import type { FieldTypeDefinition } from '../field-type.ts';
import { mediaReference } from './media-reference.ts';

export const fileField: FieldTypeDefinition = { ...mediaReference, widget: 'file-picker', changesTo: ['image', 'json'] };
