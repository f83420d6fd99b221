import { useQuery } from '@tanstack/react-query';
import { Link, type LinkProps } from '@tanstack/react-router';
import { ArrowRight, CarFront, Gift, Motorbike, Package, Ruler, Truck } from 'lucide-react';
import { FEATURED_PRODUCTS_LIMIT } from '../../../shared/constants';
import { useShippingPromise } from '../../cart/shipping-policy';
import { storeConfig } from '../../store-config';
import { useTRPC } from '../../trpc';
import { LatinCross } from '../catalog/category-icon';
import { CategoryTile, CategoryTileSkeletons } from '../catalog/CategoryTile';
import { ProductCard, ProductCardSkeletons } from '../catalog/ProductCard';
import { StoreSection } from '../layout/StoreSection';
import { ButtonLink } from '../ui/Button';
import { gridImageSizes } from '../ui/grid-image-sizes';
import { useDocumentTitle } from '../ui/use-document-title';
import { TeeGraphic } from './TeeGraphic';

/** A "see more" link under a heading or an empty state. */
interface MoreLink {
  to: LinkProps['to'];
  label: string;
}

export function HomePage() {
  useDocumentTitle(null);
  return (
    <>
      <Hero />
      <CategoriesSection />
      <FeaturedSection />
      <ClubBanner />
    </>
  );
}

function Hero() {
  const shipping = useShippingPromise();
  return (
    <section aria-labelledby="hero-heading" className="relative isolate overflow-hidden bg-stone-950 text-white">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(60%_70%_at_85%_40%,rgba(234,88,12,0.35),transparent_70%),radial-gradient(40%_50%_at_10%_100%,rgba(120,113,108,0.25),transparent_70%)]"
      />
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-20 lg:grid-cols-[1.1fr_1fr] lg:px-8 lg:py-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-xs font-semibold tracking-wide text-accent-100 uppercase">
            <span className="size-1.5 rounded-full bg-accent-500" aria-hidden="true" />
            Printed to order · Shipped free
          </p>
          <h1
            id="hero-heading"
            className="font-display mt-6 text-4xl leading-[1.05] font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl"
          >
            Tees for the ride, the garage and the faith.
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-stone-300">
            Bold, original designs for motorcycle riders, car lovers and believers, printed on soft, comfortable shirts when you order them.
          </p>
          <div className="mt-10 flex flex-col gap-3 sm:flex-row">
            <ButtonLink to="/shop" variant="accent" size="xl">
              Shop Now
              <ArrowRight className="size-5" aria-hidden="true" />
            </ButtonLink>
            <ButtonLink to="/subscriptions" variant="inverse-outline" size="xl">
              View Subscriptions
            </ButtonLink>
          </div>
          <ul className="mt-10 grid max-w-xl grid-cols-1 gap-3 text-sm text-stone-300 sm:grid-cols-3">
            <li className="flex items-center gap-2">
              <Truck className="size-5 shrink-0 text-accent-500" aria-hidden="true" />
              {/* The same width while loading, so the row does not move. */}
              {shipping?.short ?? <span className="h-4 w-24 animate-pulse rounded bg-stone-800" />}
            </li>
            <li className="flex items-center gap-2">
              <Ruler className="size-5 shrink-0 text-accent-500" aria-hidden="true" />
              Sizes XS to 4XL
            </li>
            <li className="flex items-center gap-2">
              <Package className="size-5 shrink-0 text-accent-500" aria-hidden="true" />
              Printed on demand
            </li>
          </ul>
        </div>
        <div className="relative mx-auto hidden h-[26rem] w-full max-w-lg sm:block" aria-hidden="true">
          <TeeGraphic color="#292524" inkColor="#f97316" Icon={Motorbike} className="absolute top-6 left-0 w-[48%] -rotate-8" />
          <TeeGraphic color="#f5f5f4" inkColor="#1c1917" Icon={LatinCross} className="absolute top-0 right-0 w-[48%] rotate-6" />
          <TeeGraphic color="#ea580c" inkColor="#fff7ed" Icon={CarFront} className="absolute bottom-0 left-[23%] w-[54%]" />
        </div>
      </div>
    </section>
  );
}

function SectionHeading({ id, title, subtitle, link }: { id: string; title: string; subtitle: string; link?: MoreLink }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h2 id={id} className="font-display text-2xl font-extrabold tracking-tight text-stone-950 sm:text-3xl">
          {title}
        </h2>
        <p className="mt-2 text-stone-600">{subtitle}</p>
      </div>
      {link && <MoreLinkAnchor link={link} />}
    </div>
  );
}

/** "View all →": on to the rest of a section. */
function MoreLinkAnchor({ link, className = '' }: { link: MoreLink; className?: string }) {
  return (
    <Link
      to={link.to}
      className={`inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-accent-700 hover:text-accent-800 ${className}`}
    >
      {link.label}
      <ArrowRight className="size-4" aria-hidden="true" />
    </Link>
  );
}

function EmptyState({ message, link }: { message: string; link: MoreLink }) {
  return (
    <div className="mt-8 rounded-2xl border border-dashed border-stone-300 bg-stone-50 px-6 py-12 text-center">
      <p className="text-stone-600">{message}</p>
      <MoreLinkAnchor link={link} className="mt-4" />
    </div>
  );
}

/** A tile's width in the section's grid gap-6 sm:grid-cols-2 lg:grid-cols-3. */
const CATEGORY_TILE_SIZES = gridImageSizes({ columns: { base: 1, sm: 2, lg: 3 }, gap: { base: 24 } });

function CategoriesSection() {
  const trpc = useTRPC();
  const { data: categories = [], isPending } = useQuery(trpc.catalog.categories.queryOptions());
  return (
    <StoreSection labelledBy="categories-heading">
      <SectionHeading id="categories-heading" title="Shop by Category" subtitle="Find the design that fits your passion." />
      {isPending ? (
        <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          <CategoryTileSkeletons count={3} />
        </div>
      ) : categories.length === 0 ? (
        <EmptyState message="Our categories are being restocked. Check back soon." link={{ to: '/shop', label: 'Browse all tees' }} />
      ) : (
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {categories.map((category) => (
            <li key={category.id} className="flex">
              <CategoryTile category={category} imageSizes={CATEGORY_TILE_SIZES} />
            </li>
          ))}
        </ul>
      )}
    </StoreSection>
  );
}

/** A featured card's width in the section's grid grid-cols-2 gap-x-4 sm:gap-x-6 md:grid-cols-3. */
const FEATURED_CARD_SIZES = gridImageSizes({ columns: { base: 2, md: 3 }, gap: { base: 16, sm: 24 } });

function FeaturedSection() {
  const trpc = useTRPC();
  const { data: products = [], isPending } = useQuery(trpc.catalog.featuredProducts.queryOptions());
  const featured = products.slice(0, FEATURED_PRODUCTS_LIMIT);
  return (
    <StoreSection labelledBy="featured-heading" band>
      <SectionHeading
        id="featured-heading"
        title="Featured Tees"
        subtitle="Customer favorites and fresh drops."
        link={{ to: '/shop', label: 'Shop all products' }}
      />
      {isPending ? (
        <div className="mt-8 grid grid-cols-2 gap-x-4 gap-y-8 sm:gap-x-6 md:grid-cols-3">
          <ProductCardSkeletons count={FEATURED_PRODUCTS_LIMIT} />
        </div>
      ) : featured.length === 0 ? (
        <EmptyState message="No featured tees right now." link={{ to: '/shop', label: 'Browse the shop' }} />
      ) : (
        <ul className="mt-8 grid grid-cols-2 gap-x-4 gap-y-10 sm:gap-x-6 md:grid-cols-3" data-testid="featured-products">
          {featured.map((product) => (
            <li key={product.id} className="flex">
              {/* Below the hero and the categories: lazy, fetched as the shopper scrolls near. */}
              <ProductCard product={product} imageSizes={FEATURED_CARD_SIZES} />
            </li>
          ))}
        </ul>
      )}
    </StoreSection>
  );
}

function ClubBanner() {
  return (
    <StoreSection labelledBy="club-heading">
      <div className="relative isolate overflow-hidden rounded-3xl bg-accent-700 px-6 py-12 text-white sm:px-12 sm:py-16">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(50%_80%_at_100%_0%,rgba(255,255,255,0.22),transparent_70%),radial-gradient(40%_60%_at_0%_100%,rgba(0,0,0,0.18),transparent_70%)]"
        />
        <div className="flex flex-col gap-8 lg:flex-row lg:items-center lg:justify-between">
          <div className="max-w-2xl">
            <p className="inline-flex items-center gap-2 text-sm font-semibold tracking-wide text-accent-100 uppercase">
              <Gift className="size-4" aria-hidden="true" />
              Subscription Club
            </p>
            <h2 id="club-heading" className="font-display mt-3 text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">
              Join the {storeConfig.storeName} Tee Club
            </h2>
            <p className="mt-4 text-lg leading-8 text-accent-50">
              A new exclusive design delivered to your door every month or quarter. Choose the themes you love and let the tees come to you.
            </p>
          </div>
          <ButtonLink to="/subscriptions" variant="inverse" size="xl">
            Explore the Club
            <ArrowRight className="size-5" aria-hidden="true" />
          </ButtonLink>
        </div>
      </div>
    </StoreSection>
  );
}
