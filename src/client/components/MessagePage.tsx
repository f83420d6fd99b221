import type { LucideIcon } from 'lucide-react';
import { useId, type ReactNode, type Ref } from 'react';

/**
 * A page that is one message: an icon, a heading and a line of text, then what to do next (the
 * not-found pages, the empty cart). Sits in the layout's main area like any page.
 */
export function MessagePage({
  icon: Icon,
  eyebrow,
  title,
  children,
  actions,
  headingRef,
}: {
  icon: LucideIcon;
  /** A short line above the heading, e.g. "404". */
  eyebrow?: string;
  title: string;
  children: ReactNode;
  actions: ReactNode;
  /** For a page that moves the keyboard focus to its heading (the cart emptied by its last Remove). */
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const headingId = useId();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:py-32" aria-labelledby={headingId}>
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-accent-50 text-accent-700">
        <Icon className="size-7" aria-hidden="true" />
      </span>
      {eyebrow && <p className="mt-6 text-sm font-semibold tracking-widest text-accent-700 uppercase">{eyebrow}</p>}
      <h1
        id={headingId}
        ref={headingRef}
        tabIndex={headingRef ? -1 : undefined}
        className={`font-display ${eyebrow ? 'mt-2' : 'mt-6'} text-3xl font-extrabold tracking-tight text-stone-950 focus:outline-none sm:text-4xl`}
      >
        {title}
      </h1>
      <div className="mt-4 text-base leading-7 text-stone-600">{children}</div>
      <div className="mt-8 flex w-full max-w-xs flex-col gap-3 sm:max-w-none sm:flex-row sm:justify-center">{actions}</div>
    </section>
  );
}
