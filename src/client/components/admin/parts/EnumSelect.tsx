import type { ComponentProps } from 'react';
import { Select } from '../../ui/fields';

// A labelled select over a fixed list of values (a list's status filter, an order's status), with
// each value's label and a typed onChange:
//
//   <EnumSelect label="Status" values={ORDER_FILTERS} value={status} optionLabel={capitalize} onChange={setStatus} />

type EnumSelectProps<Value extends string> = Omit<ComponentProps<typeof Select>, 'value' | 'onChange' | 'children'> & {
  values: readonly Value[];
  value: Value;
  optionLabel: (value: Value) => string;
  onChange: (value: Value) => void;
};

export function EnumSelect<Value extends string>({ values, value, optionLabel, onChange, ...props }: EnumSelectProps<Value>) {
  return (
    <Select {...props} value={value} onChange={(event) => onChange(event.target.value as Value)}>
      {values.map((option) => (
        <option key={option} value={option}>
          {optionLabel(option)}
        </option>
      ))}
    </Select>
  );
}
