import type { FieldTypeDefinition } from './field-type.ts';
import type { FieldType } from './names.ts';
import { booleanField } from './types/boolean.ts';
import { datetimeField } from './types/datetime.ts';
import { fileField } from './types/file.ts';
import { imageField } from './types/image.ts';
import { integerField } from './types/integer.ts';
import { jsonField } from './types/json.ts';
import { multiSelectField } from './types/multi-select.ts';
import { numberField } from './types/number.ts';
import { portableTextField } from './types/portable-text.ts';
import { referenceField } from './types/reference.ts';
import { selectField } from './types/select.ts';
import { slugField } from './types/slug.ts';
import { stringField } from './types/string.ts';
import { textField } from './types/text.ts';
import { urlField } from './types/url.ts';

/** Every field type by its name on the wire, in the order the API lists them. */
const registry: { readonly [Name in FieldType]: FieldTypeDefinition } = {
  string: stringField,
  text: textField,
  number: numberField,
  integer: integerField,
  boolean: booleanField,
  datetime: datetimeField,
  select: selectField,
  multiSelect: multiSelectField,
  portableText: portableTextField,
  image: imageField,
  file: fileField,
  reference: referenceField,
  json: jsonField,
  slug: slugField,
  url: urlField,
};


export function fieldType(type: FieldType): FieldTypeDefinition {
  return registry[type];
}
