import { Link } from '@tanstack/react-router';
import { LifeBuoy, Mail } from 'lucide-react';
import type { ComponentType, ReactNode, SVGProps } from 'react';
import { storeConfig } from '../../store-config';
import { useDocumentTitle } from '../ui/use-document-title';
import { PageIntro } from './PageIntro';

const HELP_LINKS = [
  { to: '/shipping', label: 'Shipping Info' },
  { to: '/returns', label: 'Returns & Exchanges' },
  { to: '/faq', label: 'FAQ' },
  { to: '/contact', label: 'Contact Us' },
] as const;

/** Shared classes for links inside help text. */
export const helpLinkClass =
  'font-semibold text-accent-700 underline decoration-accent-600/30 underline-offset-2 hover:decoration-accent-600';

interface HelpLayoutProps {
  title: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  lead: string;
  children: ReactNode;
}

/** The shipping, returns and FAQ pages: intro band, the page's text, and a side panel linking the other help pages. */
export function HelpLayout({ title, Icon, lead, children }: HelpLayoutProps) {
  useDocumentTitle(title);
  return (
    <>
      <PageIntro eyebrow="Help Center" Icon={Icon} title={title}>
        <p>{lead}</p>
      </PageIntro>
      <div className="mx-auto grid max-w-7xl gap-12 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[minmax(0,1fr)_18rem] lg:px-8">
        <div className="max-w-3xl space-y-12">{children}</div>
        <aside className="space-y-6 lg:sticky lg:top-24 lg:self-start" aria-label="More help">
          <nav aria-label="Help pages" className="rounded-2xl border border-stone-200 p-5">
            <h2 className="text-sm font-semibold tracking-wide text-stone-500 uppercase">Help Center</h2>
            <ul className="mt-3 space-y-1">
              {HELP_LINKS.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="block rounded-lg px-3 py-2 text-sm font-medium text-stone-700 transition hover:bg-stone-100 data-[status=active]:bg-accent-50 data-[status=active]:text-accent-800"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="rounded-2xl bg-stone-950 p-5 text-stone-300">
            <LifeBuoy className="size-6 text-accent-500" aria-hidden="true" />
            <h2 className="mt-3 font-semibold text-white">Still need help?</h2>
            <p className="mt-1 text-sm leading-6">Write to us and we'll respond within 24 hours.</p>
            <a
              href={`mailto:${storeConfig.storeEmail}`}
              className="mt-3 inline-flex max-w-full items-center gap-2 text-sm font-semibold break-all text-white hover:text-accent-100"
            >
              <Mail className="size-4 shrink-0" aria-hidden="true" />
              {storeConfig.storeEmail}
            </a>
          </div>
        </aside>
      </div>
    </>
  );
}

/** One titled block of help text. */
export function HelpSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} id={id} className="scroll-mt-24">
      <h2 id={`${id}-heading`} className="font-display text-2xl font-extrabold tracking-tight text-stone-950">
        {title}
      </h2>
      <div className="mt-4 space-y-4 leading-7 text-stone-700">{children}</div>
    </section>
  );
}

/** A bulleted list with accent dots, for short rules and tips. */
export function HelpList({ items }: { items: ReactNode[] }) {
  return (
    <ul className="space-y-2">
      {items.map((item, index) => (
        <li key={index} className="flex gap-3">
          <span className="mt-2.5 size-1.5 shrink-0 rounded-full bg-accent-600" aria-hidden="true" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
