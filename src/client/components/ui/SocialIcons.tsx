import type { SVGProps } from 'react';

// lucide-react 1.x no longer ships brand logos; these are simple outline marks in the same style.

type IconProps = SVGProps<SVGSVGElement>;

const base = {
  xmlns: 'http://www.w3.org/2000/svg',
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
} as const;

export const InstagramIcon = (props: IconProps) => (
  <svg {...base} {...props}>
    <rect x="3" y="3" width="18" height="18" rx="5" />
    <circle cx="12" cy="12" r="4" />
    <circle cx="17.5" cy="6.5" r="0.6" fill="currentColor" />
  </svg>
);

export const FacebookIcon = (props: IconProps) => (
  <svg {...base} {...props}>
    <path d="M18 2h-3a5 5 0 0 0-5 5v3H7v4h3v8h4v-8h3l1-4h-4V7a1 1 0 0 1 1-1h3z" />
  </svg>
);

export const XIcon = (props: IconProps) => (
  <svg {...base} {...props}>
    <path d="M4 4h4.5L20 20h-4.5z" />
    <path d="M19.5 4 13.6 10.7M10.4 13.3 4.5 20" />
  </svg>
);

export const YoutubeIcon = (props: IconProps) => (
  <svg {...base} {...props}>
    <path d="M2.5 7.2a2.8 2.8 0 0 1 2-2C6.3 4.7 12 4.7 12 4.7s5.7 0 7.5.5a2.8 2.8 0 0 1 2 2c.5 1.8.5 4.8.5 4.8s0 3-.5 4.8a2.8 2.8 0 0 1-2 2c-1.8.5-7.5.5-7.5.5s-5.7 0-7.5-.5a2.8 2.8 0 0 1-2-2C2 15 2 12 2 12s0-3 .5-4.8Z" />
    <path d="m10 9 5 3-5 3z" fill="currentColor" />
  </svg>
);
