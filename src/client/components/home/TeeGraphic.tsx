import type { LucideIcon } from 'lucide-react';

interface TeeGraphicProps {
  /** Fill of the shirt body (any CSS color). */
  color: string;
  /** Color of the printed icon on the chest. */
  inkColor: string;
  Icon: LucideIcon;
  /** Must position the graphic (absolute or relative): the print is placed inside it. */
  className: string;
}

// Same silhouette as public/images/fallback-tee.svg.
const TEE_PATH =
  'M70 18 L92 10 C97 22 110 30 120 30 C130 30 143 22 148 10 L170 18 L222 46 L204 92 L178 82 L178 222 C178 227 174 230 169 230 L71 230 C66 230 62 227 62 222 L62 82 L36 92 L18 46 Z';

/** A flat t-shirt with a themed print, used as decoration in the hero. */
export function TeeGraphic({ color, inkColor, Icon, className }: TeeGraphicProps) {
  return (
    <div className={className} aria-hidden="true">
      <svg viewBox="0 0 240 240" className="size-full drop-shadow-[0_18px_30px_rgba(0,0,0,0.35)]">
        <path d={TEE_PATH} fill={color} stroke="rgba(0,0,0,0.12)" strokeWidth="2" strokeLinejoin="round" />
        <path d="M92 10 C97 22 110 30 120 30 C130 30 143 22 148 10" fill="none" stroke="rgba(0,0,0,0.18)" strokeWidth="4" />
      </svg>
      <Icon className="absolute top-[38%] left-1/2 size-[30%] -translate-x-1/2" color={inkColor} strokeWidth={1.75} />
    </div>
  );
}
