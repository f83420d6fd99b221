const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is one of our row ids (a UUID) and can be looked up as one. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
