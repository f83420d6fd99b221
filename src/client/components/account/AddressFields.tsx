import { TextField } from '../ui/fields';

/**
 * Street, city, state, ZIP and country of one address in the surrounding <Form>, named
 * `${prefix}.street` and so on, as a group named `label`; `section` is the autocomplete section
 * (shipping or billing).
 */
export function AddressFields({ prefix, section, label }: { prefix: string; section: 'shipping' | 'billing'; label: string }) {
  const field = (name: string) => `${prefix}.${name}`;
  const auto = (token: string) => `${section} ${token}`;
  return (
    <div role="group" aria-label={label} className="grid gap-5 sm:grid-cols-6">
      <TextField className="sm:col-span-6" name={field('street')} label="Street address" autoComplete={auto('street-address')} required />
      <TextField className="sm:col-span-3" name={field('city')} label="City" autoComplete={auto('address-level2')} required />
      <TextField className="sm:col-span-3" name={field('state')} label="State" autoComplete={auto('address-level1')} required />
      <TextField className="sm:col-span-3" name={field('zip')} label="ZIP code" autoComplete={auto('postal-code')} required />
      <TextField className="sm:col-span-3" name={field('country')} label="Country" autoComplete={auto('country-name')} />
    </div>
  );
}
