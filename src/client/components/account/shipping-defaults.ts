import { emptyAddress } from '../../../shared/constants';
import type { ShippingInput } from '../../../shared/schemas/checkout';
import type { RouterOutputs } from '../../trpc';

/** The shipping form's starting values from the account (a failed read leaves it blank, docs/PRODUCT.md § Messages). */
export function shippingDefaults(profile: RouterOutputs['account']['profile'] | undefined): ShippingInput {
  return {
    first_name: profile?.first_name ?? '',
    last_name: profile?.last_name ?? '',
    phone: profile?.phone ?? '',
    ...emptyAddress(),
    ...profile?.shipping_address,
  };
}
