// Taps that come before the page's scripts have hydrated it (docs/adr/0028-taps-before-hydration.md).
// A server-rendered page shows its buttons well before React answers them: the scripts load at low
// priority after the paint (docs/adr/0017). This small script runs first, inline in the page's
// head: until <html data-hydrated> it holds every tap on a button (Add to Cart, the size and
// quantity controls, the menu), every change of a select and every value typed into a text or
// number field (the quantity), marks a tapped button busy, and stops the tap from doing anything
// else (a form's native submit would reload the page). Once hydrated, the client replays them in
// order (src/client/early-taps.ts). Links are left alone: they work as links.

/** Where the held taps wait for the client: `window[EARLY_TAPS_QUEUE]`. */
export const EARLY_TAPS_QUEUE = '__threadlineEarlyTaps';

/** One held tap: a click on a control, or a select's new value or what a field held after a keystroke. */
export type EarlyTap = { kind: 'click'; target: Element } | { kind: 'change' | 'input'; target: Element; value: string };

/** The inline script's text (ES5, no imports: it runs before any module). */
export const EARLY_TAPS_SCRIPT = `(function(){var d=document,r=d.documentElement,q=window.${EARLY_TAPS_QUEUE}=[];
function early(){return !r.hasAttribute('data-hydrated');}
d.addEventListener('click',function(e){if(!early())return;var t=e.target&&e.target.closest&&e.target.closest('button');
if(!t||t.disabled)return;e.preventDefault();e.stopImmediatePropagation();t.setAttribute('aria-busy','true');q.push({kind:'click',target:t});},true);
d.addEventListener('change',function(e){if(!early())return;var t=e.target;if(!t||t.tagName!=='SELECT')return;
q.push({kind:'change',target:t,value:t.value});},true);
d.addEventListener('input',function(e){if(!early())return;var t=e.target;if(!t||!(t.tagName==='TEXTAREA'||t.tagName==='INPUT'&&!/^(checkbox|radio|file)$/.test(t.type)))return;
q.push({kind:'input',target:t,value:t.value});},true);
d.addEventListener('submit',function(e){if(early())e.preventDefault();},true);})();`;
