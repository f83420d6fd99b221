import type { ComponentType, SVGProps } from 'react';

const BADGE_CLASS = 'inline-flex size-10 items-center justify-center rounded-full bg-accent-100 text-accent-700';

/** The accent circle holding an icon at the head of a help or contact blurb; `className` adds layout (shrink-0 in a flex row). */
export function IconBadge({ Icon, className }: { Icon: ComponentType<SVGProps<SVGSVGElement>>; className?: string }) {
  return (
    <span className={className ? `${BADGE_CLASS} ${className}` : BADGE_CLASS}>
      <Icon className="size-5" aria-hidden="true" />
    </span>
  );
}
