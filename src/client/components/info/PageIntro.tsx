import type { ComponentType, ReactNode, SVGProps } from 'react';

interface PageIntroProps {
  eyebrow: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  title: string;
  children: ReactNode;
  /** The dark variant matches the home page hero; the light one suits plain help pages. */
  tone?: 'dark' | 'light';
}

/** The band at the top of the contact, club and help pages: eyebrow, the page's only h1, a short lead. */
export function PageIntro({ eyebrow, Icon, title, children, tone = 'light' }: PageIntroProps) {
  const dark = tone === 'dark';
  return (
    <div className={dark ? 'relative isolate overflow-hidden bg-stone-950 text-white' : 'border-b border-stone-200 bg-stone-50'}>
      {dark && (
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(60%_80%_at_90%_20%,rgba(234,88,12,0.35),transparent_70%),radial-gradient(40%_60%_at_0%_100%,rgba(120,113,108,0.25),transparent_70%)]"
        />
      )}
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
        <p
          className={`inline-flex items-center gap-2 text-sm font-semibold tracking-wide uppercase ${dark ? 'text-accent-100' : 'text-accent-700'}`}
        >
          <Icon className="size-4" aria-hidden="true" />
          {eyebrow}
        </p>
        <h1
          className={`font-display mt-3 text-3xl font-extrabold tracking-tight text-balance sm:text-4xl lg:text-5xl ${dark ? 'text-white' : 'text-stone-950'}`}
        >
          {title}
        </h1>
        <div className={`mt-4 max-w-2xl text-lg leading-8 ${dark ? 'text-stone-300' : 'text-stone-600'}`}>{children}</div>
      </div>
    </div>
  );
}
