import { createLink } from '@tanstack/react-router';
import { LoaderCircle, type LucideIcon } from 'lucide-react';
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, Ref } from 'react';

// The one button of the store, for storefront, account and admin alike.
//
//   <Button variant="primary" busy={save.isPending} busyLabel="Saving...">Save</Button>
//   <ButtonLink to="/shop" size="lg">Start Shopping</ButtonLink>          (a typed router link)
//   <a href="mailto:..." className={buttonClass({ variant: 'secondary' })}>Email us</a>
//
// Sizes: xs to md are the back office's (rounded corners), lg and xl the storefront's (pills).

export type ButtonVariant =
  'primary' | 'accent' | 'secondary' | 'secondary-danger' | 'danger' | 'success' | 'ghost' | 'ghost-danger' | 'inverse' | 'inverse-outline';
export type ButtonSize = 'xs' | 'sm' | 'md' | 'lg' | 'xl';

export interface ButtonStyle {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Fully rounded ends; the default for lg and xl. */
  pill?: boolean;
  /** Full width of its container. */
  block?: boolean;
}

const BASE =
  'inline-flex shrink-0 items-center justify-center gap-2 font-semibold whitespace-nowrap transition disabled:cursor-not-allowed disabled:opacity-60';

const SIZES: Record<ButtonSize, string> = {
  xs: 'h-8 px-3 text-xs',
  sm: 'h-9 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-11 px-6 text-sm',
  xl: 'h-12 px-7 text-base',
};

// White text sits on stone-900, accent-700 and red-700: each passes WCAG AA contrast.
const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-stone-900 text-white shadow-xs hover:bg-stone-700',
  accent: 'bg-accent-700 text-white shadow-sm hover:bg-accent-800',
  secondary: 'border border-stone-300 bg-white text-stone-800 shadow-xs hover:border-stone-400 hover:bg-stone-50',
  // A quiet delete beside other secondary actions.
  'secondary-danger': 'border border-stone-300 bg-white text-red-700 shadow-xs hover:border-red-300 hover:bg-red-50',
  danger: 'bg-red-700 text-white shadow-xs hover:bg-red-800',
  // A confirmation that just happened ("Added to Cart!"); it is also disabled, so it must not fade.
  success: 'bg-emerald-700 text-white shadow-sm disabled:opacity-100',
  ghost: 'text-stone-600 hover:bg-stone-100 hover:text-stone-900',
  'ghost-danger': 'text-stone-600 hover:bg-red-50 hover:text-red-700',
  // On dark or coloured backgrounds (the home page's hero and banners).
  inverse: 'bg-white text-accent-700 shadow-sm hover:bg-accent-50',
  'inverse-outline': 'border border-white/30 text-white hover:border-white/60 hover:bg-white/10',
};

/** The classes of a button of this style, for elements that are not <Button> (labels, plain anchors). */
export function buttonClass({ variant = 'primary', size = 'md', pill, block }: ButtonStyle = {}): string {
  const rounded = (pill ?? (size === 'lg' || size === 'xl')) ? 'rounded-full' : 'rounded-lg';
  return [BASE, SIZES[size], VARIANTS[variant], rounded, block ? 'w-full' : ''].filter(Boolean).join(' ');
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, ButtonStyle {
  /** While true the button is disabled and shows a spinner (and busyLabel, e.g. the spec's "Saving..."). */
  busy?: boolean;
  busyLabel?: string;
  /** An icon before the text (replaced by the spinner while busy). */
  icon?: LucideIcon;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant,
  size,
  pill,
  block,
  busy = false,
  busyLabel,
  icon: Icon,
  className,
  children,
  disabled,
  type = 'button',
  ref,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      ref={ref}
      type={type}
      disabled={disabled || busy}
      className={`${buttonClass({ variant, size, pill, block })} ${className ?? ''}`}
    >
      {busy ? <LoaderCircle className="size-4 animate-spin" aria-hidden="true" /> : Icon && <Icon className="size-4" aria-hidden="true" />}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}

const ICON_TONES = {
  default: 'text-stone-600 hover:bg-stone-100 hover:text-stone-900',
  danger: 'text-red-700 hover:bg-red-50 hover:text-red-800',
  'danger-subtle': 'text-stone-600 hover:bg-red-50 hover:text-red-700',
} as const;

/** A square, icon-only button's classes; give the button an aria-label. */
export function iconButtonClass(tone: keyof typeof ICON_TONES = 'default'): string {
  return `inline-flex size-9 shrink-0 items-center justify-center rounded-lg transition disabled:cursor-not-allowed disabled:opacity-50 ${ICON_TONES[tone]}`;
}

interface ButtonAnchorProps extends AnchorHTMLAttributes<HTMLAnchorElement>, ButtonStyle {
  icon?: LucideIcon;
  ref?: Ref<HTMLAnchorElement>;
}

function ButtonAnchor({ variant, size, pill, block, icon: Icon, className, children, ref, ...rest }: ButtonAnchorProps) {
  return (
    <a {...rest} ref={ref} className={`${buttonClass({ variant, size, pill, block })} ${className ?? ''}`}>
      {Icon && <Icon className="size-4" aria-hidden="true" />}
      {children}
    </a>
  );
}

/** A router <Link> that looks like a button; `to`, `params` and `search` are typed by the route tree. */
export const ButtonLink = createLink(ButtonAnchor);

/** A link inside running text. */
export const textLinkClass = 'rounded-sm font-semibold text-accent-700 underline-offset-4 hover:text-accent-800 hover:underline';
