import { Link, type LinkComponentProps } from '@tanstack/react-router';

type StoreLinkProps = Omit<LinkComponentProps<'a'>, 'to' | 'params' | 'search'> & { to: string };

/**
 * A router link to a path given as a plain string. Used for storefront routes the header, footer
 * and cards point at before their route files exist (/shop, /cart, /category/{slug}, ...);
 * once a route exists, prefer the typed <Link>.
 */
export function StoreLink({ to, ...props }: StoreLinkProps) {
  // The route tree types `to`; these paths are checked by the e2e tests instead.
  return <Link {...props} to={to as '/'} />;
}
