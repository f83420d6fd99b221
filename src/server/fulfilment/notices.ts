import { sql } from 'kysely';
import type { Db } from '../db/database';
import { packageShippedEmail } from '../email/templates/orders';
import { recordOrderEvent, sendOrderEmail } from '../orders/transitions';
import { advanceFulfilment, needsAttention, type FulfilmentSettings } from './jobs';
import type { FulfilmentNotice } from './provider';

// What the print-on-demand provider's webhooks change (docs/adr/0035). Each notice is applied in
// one transaction and is harmless repeated or late: a package is recorded (and emailed) once by
// its id, a state only ever moves forward, the timeline gets each step once.

export type NoticeOutcome = 'applied' | 'unchanged' | 'unknown_order' | 'ignored';

export async function applyFulfilmentNotice(db: Db, settings: FulfilmentSettings, notice: FulfilmentNotice): Promise<NoticeOutcome> {
  if (notice.kind === 'ignored') return 'ignored';
  return db.transaction().execute(async (trx) => {
    // Locked: two notices about one order (two packages at once) are applied one after the other.
    const order = await trx
      .selectFrom('orders')
      .select(['id', 'status', 'tracking_number'])
      .where((w) =>
        w.or([
          w('provider_order_id', '=', notice.providerOrderId),
          ...(notice.externalId ? [w('order_number', '=', notice.externalId)] : []),
        ]),
      )
      .where('fulfilment_state', 'is not', null)
      .forUpdate()
      .executeTakeFirst();
    if (!order) return 'unknown_order';

    switch (notice.kind) {
      case 'shipment_sent': {
        const { shipment } = notice;
        const added = await trx
          .insertInto('order_shipments')
          .values({
            order_id: order.id,
            provider_shipment_id: shipment.id,
            carrier: shipment.carrier,
            tracking_number: shipment.trackingNumber,
            tracking_url: shipment.trackingUrl,
          })
          .onConflict((oc) => oc.columns(['order_id', 'provider_shipment_id']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!added) return 'unchanged';
        await advanceFulfilment(trx, order.id, 'shipped');
        // The order's own status moves on to shipped, never back from delivered; its tracking
        // number is the first package's (every package stays listed beside it).
        await trx
          .updateTable('orders')
          .set({
            status: sql`CASE WHEN status IN ('pending', 'processing') THEN 'shipped' ELSE status END`,
            tracking_number: sql<string>`coalesce(tracking_number, ${shipment.trackingNumber})`,
            tracking_announced: sql<string>`coalesce(tracking_announced, ${shipment.trackingNumber})`,
            updated_at: sql<string>`now()`,
          })
          .where('id', '=', order.id)
          .execute();
        if (order.status === 'pending' || order.status === 'processing') await recordOrderEvent(trx, order.id, 'shipped');
        await sendOrderEmail(trx, settings, order.id, (store, forEmail) => packageShippedEmail(store, forEmail, shipment));
        return 'applied';
      }
      case 'needs_attention': {
        const before = await trx
          .selectFrom('orders')
          .select(['fulfilment_state', 'fulfilment_reason'])
          .where('id', '=', order.id)
          .executeTakeFirstOrThrow();
        await needsAttention(trx, settings, order.id, notice.reason);
        const after = await trx
          .selectFrom('orders')
          .select(['fulfilment_state', 'fulfilment_reason'])
          .where('id', '=', order.id)
          .executeTakeFirstOrThrow();
        return before.fulfilment_state === after.fulfilment_state && before.fulfilment_reason === after.fulfilment_reason
          ? 'unchanged'
          : 'applied';
      }
      case 'cancelled': {
        const recorded = await trx
          .selectFrom('order_events')
          .select('id')
          .where('order_id', '=', order.id)
          .where('kind', '=', 'printer_cancelled')
          .executeTakeFirst();
        if (recorded) return 'unchanged';
        await advanceFulfilment(trx, order.id, 'cancelled');
        await recordOrderEvent(trx, order.id, 'printer_cancelled');
        return 'applied';
      }
    }
  });
}
