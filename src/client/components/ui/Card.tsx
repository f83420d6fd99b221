import { useId, type HTMLAttributes, type ReactNode } from 'react';

// A white panel with a border, the basic container of account and admin screens.
//
//   <Card className="p-5">...</Card>
//   <Card title="Shipping Address" description="Where we send your order.">...fields...</Card>
//
// With a title it is a labelled <section> with an h2 and comfortable padding.

export const cardClass = 'rounded-xl border border-stone-200 bg-white shadow-xs';

interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  title?: string;
  /** Roomier, for a page of a few large sections (account settings). */
  spacious?: boolean;
  description?: ReactNode;
  /** Buttons beside the title. */
  actions?: ReactNode;
}

export function Card({ title, description, actions, spacious = false, className = '', children, ...rest }: CardProps) {
  const id = useId();
  if (!title) {
    return (
      <div {...rest} className={`${cardClass} ${className}`}>
        {children}
      </div>
    );
  }
  return (
    <section
      {...rest}
      aria-labelledby={id}
      className={`${spacious ? 'rounded-2xl border border-stone-200 bg-white p-5 shadow-xs sm:p-8' : `${cardClass} p-5 sm:p-6`} ${className}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={id} className={`font-display font-bold text-stone-950 ${spacious ? 'text-xl' : 'text-lg'}`}>
            {title}
          </h2>
          {description && <p className="mt-1 text-sm text-stone-600">{description}</p>}
        </div>
        {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
      </div>
      <div className={spacious ? 'mt-6' : 'mt-5'}>{children}</div>
    </section>
  );
}
