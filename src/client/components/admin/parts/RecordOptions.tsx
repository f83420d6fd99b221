// The options of a select over the store's own records (categories, plans), after the select's
// own first option ("All Plans", "Select a category"): each by name, an inactive one marked.
//
//   <Select label="Plan" ...>
//     <option value="">All Plans</option>
//     <RecordOptions records={plans} />
//   </Select>

export function RecordOptions({ records }: { records: readonly { id: string; name: string; is_active: boolean }[] }) {
  return records.map((record) => (
    <option key={record.id} value={record.id}>
      {record.name}
      {record.is_active ? '' : ' (inactive)'}
    </option>
  ));
}
