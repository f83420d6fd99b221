import { z } from 'zod/v4';

// zod for the browser's code: vite.config.ts resolves every `import ... from 'zod'` to this
// module, so zod is set jitless before any schema is built, whichever chunk builds the first one.
// The store's Content-Security-Policy has no 'unsafe-eval', so zod's compiled fast path (new
// Function) cannot run in the browser anyway, and its probe for it, made when the first object
// schema is built, is reported as a CSP violation even though zod catches the error. Jitless,
// zod validates with its plain interpreter. ('zod/v4' is the same module as 'zod', under a name
// the alias leaves alone.)
z.config({ jitless: true });

export * from 'zod/v4';
