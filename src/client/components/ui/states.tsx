import type { LinkProps } from '@tanstack/react-router';
import { LoaderCircle, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { ButtonLink, type ButtonStyle } from './Button';

// What a screen shows while it loads, when it has nothing, or when its read failed.
//
//   <LoadingState label="Loading emails..." />
//   <EmptyState title="No users found" hint="Try another filter" action={<button ...>Upload</button>} />
//   <EmptyState title="No orders yet" link={{ to: '/shop', label: 'Start Shopping', size: 'lg' }} />

export function LoadingState({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-2.5 py-16 text-sm text-stone-600">
      <LoaderCircle className="size-5 animate-spin text-stone-400" aria-hidden="true" />
      {label}
    </div>
  );
}

/** The way on from an empty screen when it is a page of the store: a button-styled link. */
export interface EmptyStateLink extends ButtonStyle {
  to: LinkProps['to'];
  label: string;
}

export function EmptyState({
  title,
  hint,
  icon: Icon,
  action,
  link,
}: {
  title: string;
  hint?: ReactNode;
  icon?: LucideIcon;
  action?: ReactNode;
  link?: EmptyStateLink;
}) {
  return (
    <div className="flex flex-col items-center justify-center px-4 py-14 text-center">
      {Icon && <Icon className="size-10 text-stone-300" aria-hidden="true" />}
      <p className="mt-3 text-base font-semibold text-stone-800">{title}</p>
      {hint && <p className="mt-1 text-sm text-stone-600">{hint}</p>}
      {action && <div className="mt-5">{action}</div>}
      {link && (
        <div className="mt-5">
          <ButtonLink to={link.to} variant={link.variant} size={link.size}>
            {link.label}
          </ButtonLink>
        </div>
      )}
    </div>
  );
}
