import { Shirt } from 'lucide-react';

/** The store's mark: an accent tile with a tee, next to the configured store name. */
export function BrandMark({ className = 'size-8' }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-flex shrink-0 items-center justify-center rounded-lg bg-accent-600 text-white shadow-sm ${className}`}
    >
      <Shirt className="size-[60%]" strokeWidth={2.25} />
    </span>
  );
}
