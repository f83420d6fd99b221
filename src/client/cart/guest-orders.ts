// The guest orders this tab placed and went to pay for by card, by order id: coming back from the
// card payment page (to /checkout/complete?order=<id>), the tab opens the order with its key.
// Session storage: the key stays in this tab and goes when it closes; the emailed link has it too.

const STORAGE_KEY = 'threadline:guest-orders';

export interface GuestOrder {
  orderNumber: string;
  accessKey: string;
}

function read(): Record<string, GuestOrder> {
  try {
    const saved: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return saved && typeof saved === 'object' ? (saved as Record<string, GuestOrder>) : {};
  } catch {
    return {};
  }
}

export const guestOrders = {
  remember(orderId: string, order: GuestOrder): void {
    try {
      window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...read(), [orderId]: order }));
    } catch {
      // Storage refused (private mode, full): the emailed link still opens the order.
    }
  },
  find(orderId: string): GuestOrder | undefined {
    if (typeof window === 'undefined') return undefined;
    const order = read()[orderId];
    return order && typeof order.orderNumber === 'string' && typeof order.accessKey === 'string' ? order : undefined;
  },
};
