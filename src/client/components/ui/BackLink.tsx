import { createLink } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import type { AnchorHTMLAttributes, Ref } from 'react';

// "← My Orders": the way back to the page a page belongs to, as a typed router link.
//
//   <BackLink to="/orders">My Orders</BackLink>
//   <BackLink to="/shop" weight="semibold">All products</BackLink>     (storefront pages)

interface BackAnchorProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  ref?: Ref<HTMLAnchorElement>;
  weight?: 'medium' | 'semibold';
}

function BackAnchor({ weight = 'medium', className, children, ref, ...rest }: BackAnchorProps) {
  const look = weight === 'medium' ? 'rounded-sm font-medium' : 'rounded-md font-semibold';
  return (
    <a
      {...rest}
      ref={ref}
      className={`inline-flex items-center gap-1.5 text-sm text-stone-600 hover:text-stone-900 ${look} ${className ?? ''}`}
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      {children}
    </a>
  );
}

export const BackLink = createLink(BackAnchor);
