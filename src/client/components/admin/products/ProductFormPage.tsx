import { useQuery } from '@tanstack/react-query';
import { PrintfulMappingCard } from './PrintfulMappingCard';
import { Link } from '@tanstack/react-router';
import { ArrowLeft, PackageX } from 'lucide-react';
import { useTRPC } from '../../../trpc';
import { textLinkClass } from '../../ui/Button';
import { EmptyState, LoadingState } from '../../ui/states';
import { PageHeader } from '../parts/PageHeader';
import { ProductForm } from './ProductForm';

const backLink = (
  <Link to="/admin/products" className={`${textLinkClass} inline-flex items-center gap-1 text-sm`}>
    <ArrowLeft className="size-4" aria-hidden="true" />
    All products
  </Link>
);

export function NewProductPage() {
  return (
    <>
      <div className="mb-3">{backLink}</div>
      <PageHeader title="New Product" subtitle="Add a product to the store" />
      <ProductForm />
    </>
  );
}

export function EditProductPage({ id }: { id: string }) {
  const trpc = useTRPC();
  // No retry: a missing product (or an id that is not one) is an answer, not a blip.
  const product = useQuery({ ...trpc.admin.products.byId.queryOptions({ id }), retry: false });
  return (
    <>
      <div className="mb-3">{backLink}</div>
      {product.data ? (
        <>
          <PageHeader title="Edit Product" subtitle={product.data.name} />
          {/* Keyed by product, so moving to another product starts a fresh form. */}
          <ProductForm key={product.data.id} product={product.data} />
          <div className="mt-6">
            <PrintfulMappingCard productId={product.data.id} />
          </div>
        </>
      ) : product.isError ? (
        <>
          <PageHeader title="Product Not Found" />
          <EmptyState
            icon={PackageX}
            title="This product does not exist"
            hint="It may have been deleted."
            link={{ to: '/admin/products', label: 'Back to products', variant: 'secondary' }}
          />
        </>
      ) : (
        <LoadingState label="Loading product..." />
      )}
    </>
  );
}
