import { z } from 'zod';

// zod set jitless before any schema is built. The store's Content-Security-Policy has no
// 'unsafe-eval', so zod's compiled fast path (new Function) cannot run in the browser anyway, and
// its probe for it, made when the first object schema is built, is reported as a CSP violation
// even though zod catches the error. Jitless, zod validates with its plain interpreter.
//
// "Before any schema" holds in development because main.tsx imports this module first, and in a
// build because vite.config.ts bundles it into zod's own chunk, right after zod: every chunk that
// builds a schema imports that chunk, so it runs first (from the entry chunk it would run last).
z.config({ jitless: true });
