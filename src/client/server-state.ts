/** The id of the JSON script element holding the query cache of a page rendered on the server. */
export const SERVER_STATE_ELEMENT_ID = 'server-state';
