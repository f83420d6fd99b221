// The sign-in page's modes, in its address (/login?mode=signup): apart from the page, because the
// route reads them with the store's first JavaScript and the page loads only when visited.
export const LOGIN_MODES = ['signin', 'signup', 'reset'] as const;
export type LoginMode = (typeof LOGIN_MODES)[number];
