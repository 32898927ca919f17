import { useQuery } from '@tanstack/react-query';
import { firstPeopleQuery } from './queries';

interface Props {
  id: string;
  label: string;
  /** What the empty choice says ("Anyone", "Everyone's"). */
  anyone: string;
  value: string;
  onChange: (userId: string) => void;
}

/** A labelled choice of one person, by name and email, or anyone: the first hundred (the API's largest page). */
export function PersonSelect({ id, label, anyone, value, onChange }: Props) {
  const people = useQuery(firstPeopleQuery);
  return (
    <div className="setting">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="field-input" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{anyone}</option>
        {(people.data?.items ?? []).map((person) => (
          <option key={person.id} value={person.id}>
            {`${person.name} (${person.email})`}
          </option>
        ))}
      </select>
    </div>
  );
}
