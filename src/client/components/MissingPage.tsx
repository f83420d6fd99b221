import type { LinkProps } from '@tanstack/react-router';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { MessagePage } from './MessagePage';
import { ButtonLink } from './ui/Button';

/** The one way on from a missing page: a button-styled link to a page of the store. */
export interface MissingPageLink {
  to: LinkProps['to'];
  label: string;
  icon?: LucideIcon;
}

/** A page for something that is not there (an unknown product, category or order, a closed plan): why, and where to go instead. */
export function MissingPage({
  icon,
  title,
  link,
  children,
}: {
  icon: LucideIcon;
  title: string;
  link: MissingPageLink;
  children: ReactNode;
}) {
  return (
    <MessagePage
      icon={icon}
      title={title}
      actions={
        <ButtonLink to={link.to} size="lg" icon={link.icon}>
          {link.label}
        </ButtonLink>
      }
    >
      {children}
    </MessagePage>
  );
}
