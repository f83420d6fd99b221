import { PageHeader } from '../parts/PageHeader';
import { CheckoutSettingsForm } from './CheckoutSettingsForm';
import { TemplatesForm } from './TemplatesForm';
import { TestEmailForm } from './TestEmailForm';

// Admin settings (docs/PRODUCT.md § Screens): checkout (shipping, tax, payment instructions), the default mockup
// templates and the email test tool.
export function SettingsPage() {
  return (
    <div>
      <PageHeader title="Settings" subtitle="Checkout, default mockup templates and email delivery" />
      <div className="space-y-6">
        <CheckoutSettingsForm />
        <TemplatesForm />
        <TestEmailForm />
      </div>
    </div>
  );
}
