import { now, parseAbsolute, type ZonedDateTime } from '@internationalized/date';
import { useQuery } from '@tanstack/react-query';
import { DateInput, DatePicker, DateSegment, Group } from 'react-aria-components';
import { settingsQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import type { FieldInputProps } from '../input';
import { labelIdOf } from '../input';

/**
 * datetime fields, written and shown in the site's time zone (settings `timezone`), whatever the
 * browser's: a site in Paris publishes an event at 20:00 Paris time wherever its editor sits. The
 * value stays the API's UTC ISO string.
 */
export function DateTimeInput(props: FieldInputProps<string>) {
  const t = useT();
  const timeZone = useQuery(settingsQuery).data?.timezone ?? 'UTC';
  return (
    <div className="field-datetime">
      <ZonedPicker
        id={props.id}
        labelledBy={labelIdOf(props.id)}
        describedBy={props.error !== undefined ? props.errorId : undefined}
        timeZone={timeZone}
        value={props.value}
        readOnly={props.readOnly}
        onChange={props.onChange}
      />
      <span className="field-hint">{t('editor.datetime.zone', { zone: timeZone })}</span>
    </div>
  );
}

interface ZonedPickerProps {
  id?: string;
  labelledBy: string;
  describedBy?: string;
  timeZone: string;
  value: string | undefined;
  readOnly?: boolean;
  onChange: (iso: string | undefined) => void;
}

/** A React Aria date picker over an ISO instant, in a time zone: also the schedule's. */
export function ZonedPicker({ id, labelledBy, describedBy, timeZone, value, readOnly, onChange }: ZonedPickerProps) {
  const zoned = zonedOf(value, timeZone);
  return (
    <DatePicker
      id={id}
      className="date-picker"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      isInvalid={describedBy !== undefined}
      isReadOnly={readOnly}
      granularity="minute"
      hideTimeZone={false}
      value={zoned}
      // A zoned placeholder makes what is typed a zoned value too: the time is the site's, not the browser's.
      placeholderValue={now(timeZone).set({ second: 0, millisecond: 0 })}
      onChange={(next) => onChange(next ? (next as ZonedDateTime).toDate().toISOString() : undefined)}
    >
      <Group className="date-group">
        <DateInput className="date-input">{(segment) => <DateSegment className="date-segment" segment={segment} />}</DateInput>
      </Group>
    </DatePicker>
  );
}

/** The value in the zone; null for none, or for a stored value that is not an instant (never sent back unless edited). */
function zonedOf(value: string | undefined, timeZone: string): ZonedDateTime | null {
  if (!value) return null;
  try {
    return parseAbsolute(value, timeZone);
  } catch {
    return null;
  }
}
