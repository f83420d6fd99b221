import { Headset, Mail, MessageCircle, Zap } from 'lucide-react';
import type { ComponentType, ReactNode, SVGProps } from 'react';
import { storeConfig } from '../../store-config';
import { useDocumentTitle } from '../ui/use-document-title';
import { ContactForm } from './ContactForm';
import { IconBadge } from './IconBadge';
import { PageIntro } from './PageIntro';

export function ContactPage({ initialSubject }: { initialSubject: string }) {
  useDocumentTitle('Contact Us');
  return (
    <>
      <PageIntro eyebrow="Customer Service" Icon={MessageCircle} title="Contact Us">
        <p>Have a question or feedback? We'd love to hear from you.</p>
      </PageIntro>
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-12 lg:px-8">
        <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 sm:p-8">
          {/* A new subject from the plan buttons starts a fresh form. */}
          <ContactForm key={initialSubject} initialSubject={initialSubject} />
        </div>
        <aside aria-label="Other ways to reach us">
          <ul className="grid gap-4 sm:grid-cols-3 lg:grid-cols-1">
            <InfoTile Icon={Mail} title="Email Us" text="We'll respond within 24 hours">
              <a
                href={`mailto:${storeConfig.storeEmail}`}
                className="mt-2 inline-block font-semibold break-all text-accent-700 hover:text-accent-800"
                data-testid="contact-email"
              >
                {storeConfig.storeEmail}
              </a>
            </InfoTile>
            <InfoTile
              Icon={Zap}
              title="Quick Response"
              text="Questions about an order, sizing or the club get a fast, personal reply from our team."
            />
            <InfoTile
              Icon={Headset}
              title="Expert Support"
              text="We know every design, print and fabric we sell, and we're glad to help you choose."
            />
          </ul>
        </aside>
      </div>
    </>
  );
}

interface InfoTileProps {
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  title: string;
  text: string;
  children?: ReactNode;
}

function InfoTile({ Icon, title, text, children }: InfoTileProps) {
  return (
    <li className="rounded-2xl border border-stone-200 bg-stone-50 p-5" data-testid="contact-tile">
      <IconBadge Icon={Icon} />
      <h3 className="mt-3 font-semibold text-stone-950">{title}</h3>
      <p className="mt-1 text-sm leading-6 text-stone-600">{text}</p>
      {children}
    </li>
  );
}
