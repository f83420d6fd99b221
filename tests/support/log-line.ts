import { pino } from 'pino';
import { logTransport } from '../../src/server/logging';

// One log line written as the server writes its log, for tests/unit/logging.test.ts to read.
pino({ transport: logTransport() }).info({ orderNumber: 'TL-1001' }, 'order placed');
