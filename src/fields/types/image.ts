import type { FieldTypeDefinition } from '../field-type.ts';
import { mediaReference } from './media-reference.ts';

export const imageField: FieldTypeDefinition = { ...mediaReference, widget: 'image-picker', changesTo: ['file', 'json'] };
