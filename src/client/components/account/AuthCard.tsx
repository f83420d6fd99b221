import { type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { BackLink } from '../ui/BackLink';

/** The narrow card the sign-in, reset and confirmation screens share, with the way back home under it. */
export function AuthCard({
  icon: Icon,
  title,
  subtitle,
  children,
}: {
  icon: LucideIcon;
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="bg-stone-50 px-4 py-12 sm:py-20">
      <div className="mx-auto w-full max-w-md">
        <div className="rounded-2xl border border-stone-200 bg-white px-5 py-8 shadow-sm sm:px-8">
          <div className="text-center">
            <span className="inline-flex size-12 items-center justify-center rounded-full bg-accent-50 text-accent-700">
              <Icon className="size-6" aria-hidden="true" />
            </span>
            <h1 className="font-display mt-4 text-2xl font-extrabold tracking-tight text-stone-950 sm:text-3xl">{title}</h1>
            {subtitle && <p className="mt-2 text-sm leading-6 text-stone-600">{subtitle}</p>}
          </div>
          <div className="mt-8">{children}</div>
        </div>
        <p className="mt-6 text-center text-sm">
          <BackLink to="/">Back to Home</BackLink>
        </p>
      </div>
    </div>
  );
}
