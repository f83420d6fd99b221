import {
  ChartLine,
  FolderTree,
  Image,
  LayoutDashboard,
  Mail,
  MailCheck,
  Package,
  Repeat,
  Settings,
  Shirt,
  ShoppingCart,
  TicketPercent,
  UserCheck,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { LinkProps } from '@tanstack/react-router';

export interface AdminNavItem {
  to: NonNullable<LinkProps['to']>;
  label: string;
  icon: LucideIcon;
  /** Only this exact path marks the item active (the dashboard, whose path prefixes all others). */
  exact?: boolean;
}

/** Every admin screen of docs/PRODUCT.md § Screens, in the spec's order; the club's members beside its plans, discount codes beside the orders they price. */
export const ADMIN_NAV_ITEMS: AdminNavItem[] = [
  { to: '/admin', label: 'Dashboard', icon: LayoutDashboard, exact: true },
  { to: '/admin/analytics', label: 'Analytics', icon: ChartLine },
  { to: '/admin/products', label: 'Products', icon: Package },
  { to: '/admin/categories', label: 'Categories', icon: FolderTree },
  { to: '/admin/subscriptions', label: 'Subscriptions', icon: Repeat },
  { to: '/admin/subscribers', label: 'Subscribers', icon: UserCheck },
  { to: '/admin/orders', label: 'Orders', icon: ShoppingCart },
  { to: '/admin/discounts', label: 'Discounts', icon: TicketPercent },
  { to: '/admin/mockups', label: 'Mockups', icon: Shirt },
  { to: '/admin/artwork', label: 'Artwork', icon: Image },
  { to: '/admin/customers', label: 'Customers', icon: Users },
  { to: '/admin/contact', label: 'Contact', icon: Mail },
  { to: '/admin/email-logs', label: 'Email Logs', icon: MailCheck },
  { to: '/admin/settings', label: 'Settings', icon: Settings },
];
