import type { Config } from '../config';
import { createPrintfulFulfilment } from './printful';
import { selfFulfilment, type FulfilmentProvider } from './provider';

/** Printful when its token and webhook secret are configured, otherwise the shop's own print queue. */
export function createFulfilmentProvider(config: Pick<Config, 'printful'>): FulfilmentProvider {
  return config.printful ? createPrintfulFulfilment(config.printful) : selfFulfilment;
}
