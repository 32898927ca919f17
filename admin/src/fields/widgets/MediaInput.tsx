import { useContext, useState } from 'react';
import { Button } from 'react-aria-components';
import { useT } from '../../i18n/i18n';
import { MediaPickerContext } from '../../media/pick';
import type { FieldInputProps } from '../input';
import { labelIdOf } from '../input';

/** An image or file value as the API reads it back (decisions/0014): the item as it is now, or `missing`. */
interface MediaValue {
  id?: string;
  url?: string;
  alt?: string;
  mimeType?: string;
  missing?: boolean;
}

/**
 * image and file fields: what the value names (a thumbnail, or the file's name), `missing` when the
 * item was deleted since, and buttons to choose another from the media library or clear it. What is
 * sent is the stored form, `{id, alt}` or `{url, alt}`: the filled-in keys are the server's to add.
 */
export function MediaInput(props: FieldInputProps<MediaValue | null>) {
  const t = useT();
  // The library's provider is mounted around the screens when the media library is there; without it the field still shows and clears its value.
  const pick = useContext(MediaPickerContext);
  const [picking, setPicking] = useState(false);
  // The item just chosen, shown at once: the value sent is its id, and the server fills in the rest when read.
  const [picked, setPicked] = useState<MediaValue>();
  const given = props.value ?? undefined;
  const value = given?.id !== undefined && given.url === undefined && picked?.id === given.id ? { ...picked, ...given } : given;
  const image = props.field.type === 'image';
  const choose = async () => {
    if (!pick) return;
    setPicking(true);
    try {
      const item = await pick({ accept: image ? 'image' : 'any' });
      if (item) {
        setPicked({ id: item.id, url: item.url, mimeType: item.mimeType });
        props.onChange({ id: item.id, ...(value?.alt ? { alt: value.alt } : {}) });
      }
    } finally {
      setPicking(false);
    }
  };
  const stored = (change: Partial<MediaValue>): MediaValue => {
    const next: MediaValue = value?.id ? { id: value.id } : { url: value?.url };
    const alt = 'alt' in change ? change.alt : value?.alt;
    return alt ? { ...next, alt } : next;
  };
  const name = value?.url ? decodeURIComponent(value.url.split('/').at(-1) ?? value.url) : value?.id;
  return (
    <div id={props.id} role="group" className="field-media" aria-labelledby={labelIdOf(props.id)} aria-describedby={props.error !== undefined ? props.errorId : undefined}>
      {value === undefined ? (
        <p className="field-hint">{t('editor.media.none')}</p>
      ) : value.missing ? (
        <p className="media-missing">{t('editor.media.missing', { id: value.id ?? '' })}</p>
      ) : image && value.url ? (
        <img className="media-thumb" src={value.url} alt={value.alt ?? ''} />
      ) : (
        <p className="media-name">{name}</p>
      )}
      <div className="field-actions">
        {pick && !props.readOnly && (
          <Button isDisabled={picking} onPress={() => void choose()}>
            {value === undefined ? t('editor.media.choose') : t('editor.media.replace')}
          </Button>
        )}
        {value !== undefined && !props.readOnly && <Button onPress={() => props.onChange(undefined)}>{t('editor.media.remove')}</Button>}
      </div>
      {image && value !== undefined && !value.missing && (
        <label className="media-alt">
          {t('editor.media.alt')}
          <input type="text" className="field-input" value={value.alt ?? ''} readOnly={props.readOnly} onChange={(event) => props.onChange(stored({ alt: event.target.value }))} />
        </label>
      )}
    </div>
  );
}
