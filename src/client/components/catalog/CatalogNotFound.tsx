import { ArrowLeft, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { MissingPage } from '../MissingPage';
import { useDocumentTitle } from '../ui/use-document-title';

/** The page of a product or category the shop does not have: it names the tab, says so, and leads back to the shop. */
export function CatalogNotFound({
  icon,
  title,
  backLabel,
  children,
}: {
  icon: LucideIcon;
  title: string;
  backLabel: string;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <MissingPage icon={icon} title={title} link={{ to: '/shop', label: backLabel, icon: ArrowLeft }}>
      {children}
    </MissingPage>
  );
}
