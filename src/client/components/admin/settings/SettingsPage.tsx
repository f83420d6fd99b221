import { PageHeader } from '../parts/PageHeader';
import { BackupsCard } from './BackupsCard';
import { CheckoutSettingsForm } from './CheckoutSettingsForm';
import { FulfilmentCard } from './FulfilmentCard';
import { SizePricingForm } from './SizePricingForm';
import { TemplatesForm } from './TemplatesForm';
import { TestEmailForm } from './TestEmailForm';
import { TimeZoneForm } from './TimeZoneForm';

// Admin settings (docs/PRODUCT.md § Screens): checkout (shipping, tax, payment instructions), size pricing, fulfilment, the store's
// time zone, the default mockup templates, the email test tool and the store's backups.
export function SettingsPage() {
  return (
    <div>
      <PageHeader
        title="Settings"
        subtitle="Checkout, size pricing, fulfilment, time zone, default mockup templates, email delivery and backups"
      />
      <div className="space-y-6">
        <CheckoutSettingsForm />
        <SizePricingForm />
        <FulfilmentCard />
        <TimeZoneForm />
        <TemplatesForm />
        <TestEmailForm />
        <BackupsCard />
      </div>
    </div>
  );
}
