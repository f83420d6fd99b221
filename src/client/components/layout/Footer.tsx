import { Link, linkOptions } from '@tanstack/react-router';
import { Mail } from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { useShippingPromise } from '../../cart/shipping-policy';
import { storeConfig } from '../../store-config';
import { BrandMark } from '../ui/Brand';
import { FacebookIcon, InstagramIcon, XIcon, YoutubeIcon } from '../ui/SocialIcons';

// The footer's category links are fixed (docs/PRODUCT.md § Screens), unlike the header's, which follow the database.
const category = (slug: string, label: string) => ({ label, link: linkOptions({ to: '/category/$slug', params: { slug } }) });
const COLUMNS = [
  {
    title: 'Shop',
    links: [
      category('motorcycle', 'Motorcycle Tees'),
      category('car', 'Car Tees'),
      category('christian', 'Christian Tees'),
      { label: 'All Products', link: linkOptions({ to: '/shop' }) },
    ],
  },
  {
    title: 'Subscriptions',
    links: [
      { label: 'Tee Subscription Club', link: linkOptions({ to: '/subscriptions' }) },
      { label: 'My Account', link: linkOptions({ to: '/dashboard' }) },
    ],
  },
  {
    title: 'Customer Service',
    links: [
      { label: 'Contact Us', link: linkOptions({ to: '/contact' }) },
      { label: 'Shipping Info', link: linkOptions({ to: '/shipping' }) },
      { label: 'Returns & Exchanges', link: linkOptions({ to: '/returns' }) },
      { label: 'FAQ', link: linkOptions({ to: '/faq' }) },
    ],
  },
];

const SOCIAL_LINKS: { href: string; label: string; Icon: ComponentType<SVGProps<SVGSVGElement>> }[] = [
  { href: 'https://www.instagram.com/', label: 'Instagram', Icon: InstagramIcon },
  { href: 'https://www.facebook.com/', label: 'Facebook', Icon: FacebookIcon },
  { href: 'https://x.com/', label: 'X (Twitter)', Icon: XIcon },
  { href: 'https://www.youtube.com/', label: 'YouTube', Icon: YoutubeIcon },
];

export function Footer() {
  const year = new Date().getFullYear();
  const shipping = useShippingPromise();
  return (
    <footer className="mt-auto bg-stone-950 text-stone-400" aria-labelledby="footer-heading">
      <h2 id="footer-heading" className="sr-only">
        Footer
      </h2>
      <div className="mx-auto max-w-7xl px-4 pt-14 pb-8 sm:px-6 lg:px-8">
        <div className="grid grid-cols-2 gap-x-6 gap-y-10 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
          <div className="col-span-2 max-w-xs lg:col-span-1">
            <Link to="/" className="inline-flex items-center gap-2.5 rounded-md">
              <BrandMark />
              <span className="font-display text-lg font-extrabold tracking-tight text-white">{storeConfig.storeName}</span>
            </Link>
            <p className="mt-4 text-sm leading-6">
              Print-on-demand tees for riders, gearheads and believers. Every shirt is printed when you order it.
            </p>
            <a
              href={`mailto:${storeConfig.storeEmail}`}
              className="mt-4 inline-flex items-center gap-2 text-sm font-medium text-stone-200 hover:text-white"
            >
              <Mail className="size-4" aria-hidden="true" />
              {storeConfig.storeEmail}
            </a>
            <ul className="mt-6 flex gap-2" aria-label="Social media">
              {SOCIAL_LINKS.map(({ href, label, Icon }) => (
                <li key={label}>
                  <a
                    href={href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${storeConfig.storeName} on ${label}`}
                    className="inline-flex size-10 items-center justify-center rounded-full bg-stone-800/70 text-stone-300 transition hover:bg-accent-600 hover:text-white"
                  >
                    <Icon className="size-[18px]" />
                  </a>
                </li>
              ))}
            </ul>
          </div>
          {COLUMNS.map((column) => (
            <nav key={column.title} aria-label={`Footer: ${column.title}`}>
              <h3 className="text-sm font-semibold tracking-wide text-white">{column.title}</h3>
              <ul className="mt-4 space-y-3">
                {column.links.map(({ label, link }) => (
                  <li key={label}>
                    <Link {...link} className="text-sm transition hover:text-white">
                      {label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="mt-12 flex flex-col gap-2 border-t border-stone-800 pt-6 text-xs sm:flex-row sm:items-center sm:justify-between">
          <p data-testid="copyright">
            © {year} {storeConfig.storeName}. All rights reserved.
          </p>
          <p>Prices in USD.{shipping && ` ${shipping.long}.`}</p>
        </div>
      </div>
    </footer>
  );
}
