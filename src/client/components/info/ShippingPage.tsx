import { Link } from '@tanstack/react-router';
import { Printer, ShoppingBag, Truck } from 'lucide-react';
import { useShippingPromise } from '../../cart/shipping-policy';
import { HelpLayout, HelpList, HelpSection, helpLinkClass } from './HelpLayout';
import { IconBadge } from './IconBadge';

const TIMELINE = [
  { Icon: ShoppingBag, title: 'You place your order', text: 'We get your order right away and queue your tees for printing.' },
  { Icon: Printer, title: 'We print it for you', text: 'Each tee is printed on demand, usually within a few business days.' },
  {
    Icon: Truck,
    title: 'It ships free',
    text: 'Your package goes out with a tracking number. Transit usually takes 3 to 7 business days.',
  },
];

export function ShippingPage() {
  const shipping = useShippingPromise();
  return (
    <HelpLayout title="Shipping Info" Icon={Truck} lead="Every tee is printed just for you when you order it, then shipped to your door.">
      {shipping && (
        <HelpSection id="shipping-cost" title={shipping.long}>
          <p>{shipping.detail} The total at checkout is the total you pay.</p>
        </HelpSection>
      )}

      <HelpSection id="timeline" title="How long it takes">
        <p>
          Because nothing is printed until you order it, your tees take a little longer than off-the-shelf stock, but they are made fresh
          for you.
        </p>
        <ol className="grid gap-4 sm:grid-cols-3">
          {TIMELINE.map(({ Icon, title, text }, index) => (
            <li key={title} className="rounded-2xl border border-stone-200 bg-stone-50 p-5">
              <div className="flex items-center gap-3">
                <IconBadge Icon={Icon} />
                <span className="text-sm font-semibold text-stone-500">Step {index + 1}</span>
              </div>
              <h3 className="mt-3 font-semibold text-stone-950">{title}</h3>
              <p className="mt-1 text-sm leading-6 text-stone-600">{text}</p>
            </li>
          ))}
        </ol>
        <p className="text-sm text-stone-600">Times are estimates: busy seasons and carrier delays can add a few days.</p>
      </HelpSection>

      <HelpSection id="where" title="Where we ship">
        <p>
          Prices are in US dollars and we ship within the United States. Outside the US?{' '}
          <Link to="/contact" className={helpLinkClass}>
            Contact us
          </Link>{' '}
          before you order and we'll tell you what's possible.
        </p>
      </HelpSection>

      <HelpSection id="tracking" title="Tracking and address changes">
        <HelpList
          items={[
            'When your order ships, it gets a tracking number. Ask us any time and we will send you the latest status.',
            'Please double-check your shipping address at checkout. You can keep a saved address in your account settings.',
            'Spotted a mistake in your address? Tell us right away: we can fix it until your order ships.',
          ]}
        />
      </HelpSection>

      <HelpSection id="club" title="Subscription club deliveries">
        <p>
          Club tees ship free too. They go out on your plan's schedule, every month or every quarter.{' '}
          <Link to="/subscriptions" className={helpLinkClass}>
            See the club plans
          </Link>
          .
        </p>
      </HelpSection>
    </HelpLayout>
  );
}
