import { PageHeader } from '../ui/PageHeader';
import { TemplatesForm } from './TemplatesForm';
import { TestEmailForm } from './TestEmailForm';

// Admin settings (SPEC §2): the default mockup templates and the email test tool.
export function SettingsPage() {
  return (
    <div>
      <PageHeader title="Settings" subtitle="Default mockup templates and email delivery" />
      <div className="space-y-6">
        <TemplatesForm />
        <TestEmailForm />
      </div>
    </div>
  );
}
