/**
 * A round colour swatch. Drawn as SVG with a fill attribute, not a style: the store's CSP refuses
 * inline style attributes in server-rendered pages.
 */
export function Swatch({ hex, className = '' }: { hex: string; className?: string }) {
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" className={`shrink-0 rounded-full ring-1 ring-stone-900/20 ${className}`}>
      <circle cx="10" cy="10" r="10" fill={hex} />
    </svg>
  );
}
