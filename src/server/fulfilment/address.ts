import type { ShippingAddress } from '../../shared/constants';

// Addresses as the provider wants them: ISO 3166 country codes, and a state or province code in
// the countries whose addresses need one. Older addresses hold a country's name ("USA"), kept working here.

const COUNTRY_NAMES: Record<string, string> = {
  USA: 'US',
  'UNITED STATES': 'US',
  'UNITED STATES OF AMERICA': 'US',
  CANADA: 'CA',
  AUSTRALIA: 'AU',
  UK: 'GB',
  'UNITED KINGDOM': 'GB',
  'GREAT BRITAIN': 'GB',
  GERMANY: 'DE',
  FRANCE: 'FR',
  IRELAND: 'IE',
  'NEW ZEALAND': 'NZ',
};

/** Countries whose addresses name a state or province (by its ISO 3166-2 code). */
const COUNTRIES_WITH_STATES = new Set(['US', 'CA', 'AU']);

export type IsoAddress = { ok: true; countryCode: string; stateCode: string | null } | { ok: false; reason: string };

export function isoAddress(address: ShippingAddress): IsoAddress {
  const country = address.country.trim().toUpperCase();
  const countryCode = /^[A-Z]{2}$/.test(country) ? country : COUNTRY_NAMES[country];
  if (!countryCode) return { ok: false, reason: `The shipping address's country "${address.country}" is not one Printful knows` };
  if (!COUNTRIES_WITH_STATES.has(countryCode)) return { ok: true, countryCode, stateCode: null };
  const state = address.state.trim().toUpperCase();
  if (!/^[A-Z]{2,3}$/.test(state))
    return { ok: false, reason: `The shipping address's state "${address.state}" is not a state or province code` };
  return { ok: true, countryCode, stateCode: state };
}
