import { Link } from '@tanstack/react-router';
import { Ruler, ShieldCheck, Undo2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { HelpLayout, HelpList, HelpSection, helpLinkClass } from './HelpLayout';
import { IconBadge } from './IconBadge';
import { CLAIM_WINDOW_DAYS } from './policy';

const CLAIM_WINDOW = `${CLAIM_WINDOW_DAYS} days of delivery`;

const EXCLUSIONS = [
  'Tees returned for a change of mind: each one was printed just for you.',
  "Tees that have been worn or washed, unless there's a print or fabric defect.",
  `Problems reported more than ${CLAIM_WINDOW_DAYS} days after delivery.`,
];

const CARE_STEPS = [
  'Turn your tee inside out before washing.',
  'Machine wash cold on a gentle cycle, with similar colors.',
  'Do not bleach or dry clean.',
  'Tumble dry low or hang to dry.',
  'Never iron directly on the print; iron inside out on low if needed.',
];

export function ReturnsPage() {
  return (
    <HelpLayout
      title="Returns & Exchanges"
      Icon={Undo2}
      lead="Every tee is printed to order, so we can't restock returns, but if something isn't right with your order, we'll make it right."
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Highlight Icon={ShieldCheck} title="Misprint or damage?">
          A free replacement or a refund, reported within {CLAIM_WINDOW}.
        </Highlight>
        <Highlight Icon={Ruler} title="Wrong size?">
          One free size exchange per item, requested within {CLAIM_WINDOW}.
        </Highlight>
      </div>

      <HelpSection id="misprints" title="Misprints, damage and wrong items">
        <p>
          If your tee arrives misprinted, damaged, or isn't the design or size you ordered, tell us within {CLAIM_WINDOW}. We'll print you a
          replacement at no cost, or refund the item if you prefer. A photo of the problem helps us sort it out quickly.
        </p>
      </HelpSection>

      <HelpSection id="exchanges" title="Size exchanges">
        <p>
          Ordered a size that doesn't fit? We'll exchange it once for another size of the same design, as long as the tee is unworn and
          unwashed and you ask within {CLAIM_WINDOW}. We'll send you instructions for sending the original back.
        </p>
      </HelpSection>

      <HelpSection id="exclusions" title="What we can't take back">
        <HelpList items={EXCLUSIONS} />
      </HelpSection>

      <HelpSection id="how" title="How to start a return or exchange">
        <ol className="list-inside list-decimal space-y-2 marker:font-semibold marker:text-accent-700">
          <li>
            <Link to="/contact" className={helpLinkClass}>
              Send us a message
            </Link>{' '}
            with your order number and what went wrong.
          </li>
          <li>For a misprint or damage, reply to our email with a photo.</li>
          <li>We'll respond within 24 hours with your replacement, exchange or refund.</li>
        </ol>
      </HelpSection>

      <HelpSection id="care" title="Caring for your tee">
        <p>A little care keeps the print bright and the fit true:</p>
        <HelpList items={CARE_STEPS} />
      </HelpSection>
    </HelpLayout>
  );
}

function Highlight({ Icon, title, children }: { Icon: typeof ShieldCheck; title: string; children: ReactNode }) {
  return (
    <div className="flex gap-4 rounded-2xl border border-stone-200 bg-stone-50 p-5">
      <IconBadge Icon={Icon} className="shrink-0" />
      <div>
        <p className="font-semibold text-stone-950">{title}</p>
        <p className="mt-1 text-sm leading-6 text-stone-600">{children}</p>
      </div>
    </div>
  );
}
