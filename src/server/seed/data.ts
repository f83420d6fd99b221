import type {
  Address,
  BillingInterval,
  ChestPosition,
  ContactStatus,
  MockupSide,
  OrderStatus,
  PaymentStatus,
  PrintStatus,
  Size,
} from '../../shared/constants';
import type { Design, Palette } from './artwork';
import type { CategoryArt } from './images';

// The demo store a first-time user sees: catalog, plans, customers and their history.
// Times are given as days before the moment of seeding.

export interface DemoCategory {
  slug: CategoryArt;
  name: string;
  description: string;
}

export const CATEGORIES: DemoCategory[] = [
  {
    slug: 'motorcycle',
    name: 'Motorcycle',
    description: 'Vintage badges, open-road sunsets and garage-born graphics for riders who measure life in miles.',
  },
  {
    slug: 'car',
    name: 'Car',
    description: 'Muscle cars, checkered flags and cruise-night classics for everyone who speaks fluent horsepower.',
  },
  {
    slug: 'christian',
    name: 'Christian',
    description: 'Scripture-inspired designs that wear your faith with quiet confidence, from Sunday service to Monday morning.',
  },
];

const RUST: Palette = { ink: '#1c1917', accent: '#c2410c', accent2: '#f59e0b', paper: '#f5f0e6' };
const OXBLOOD: Palette = { ink: '#1f2937', accent: '#b91c1c', accent2: '#f97316', paper: '#f8fafc' };
const OLIVE: Palette = { ink: '#283618', accent: '#a16207', accent2: '#eab308', paper: '#fefae0' };
const RACING: Palette = { ink: '#172554', accent: '#dc2626', accent2: '#f59e0b', paper: '#f8fafc' };
const PETROL: Palette = { ink: '#111827', accent: '#0f766e', accent2: '#2dd4bf', paper: '#f0fdfa' };
const SYNTH: Palette = { ink: '#1e1b4b', accent: '#db2777', accent2: '#f59e0b', paper: '#fdf2f8' };
const NAVY_GOLD: Palette = { ink: '#1e293b', accent: '#b45309', accent2: '#fbbf24', paper: '#fffbeb' };
const TEAL: Palette = { ink: '#134e4a', accent: '#b45309', accent2: '#f59e0b', paper: '#f0fdfa' };
const PLUM: Palette = { ink: '#3b0764', accent: '#a16207', accent2: '#f59e0b', paper: '#faf5ff' };

const WITH_XS: Size[] = ['XS', 'S', 'M', 'L', 'XL', '2XL', '3XL', '4XL'];

export interface DemoProduct {
  sku: string;
  slug: string;
  name: string;
  description: string;
  price: string;
  category: CategoryArt;
  tags: string[];
  /** Omitted: the column default, S to 4XL. */
  sizes?: Size[];
  chestPosition?: ChestPosition;
  defaultSide?: MockupSide;
  featured?: boolean;
  active?: boolean;
  daysAgo: number;
  palette: Palette;
  front: Design;
  back: Design;
}

export const PRODUCTS: DemoProduct[] = [
  {
    sku: 'TL-MOTO-001',
    slug: 'ride-free-vintage-badge-tee',
    name: 'Ride Free Vintage Badge Tee',
    description:
      'A classic round badge with a café racer at its heart, printed in rust and charcoal on a soft ring-spun cotton tee. The back carries a simple reminder of why you ride.',
    price: '27.99',
    category: 'motorcycle',
    tags: ['vintage', 'badge', 'cafe racer', 'open road'],
    featured: true,
    daysAgo: 4,
    palette: RUST,
    front: { kind: 'badge', top: 'RIDE FREE', bottom: 'EST. 1978 · OPEN ROAD', icon: 'motorcycle', banner: 'LIVE TO RIDE' },
    back: {
      kind: 'stack',
      lines: [
        { text: 'TWO WHEELS', size: 170, spacing: 8 },
        { text: 'move the', size: 110, serif: true, italic: true, color: 'accent' },
        { text: 'SOUL', size: 230, spacing: 16, rule: true },
        { text: 'RIDE FREE · EST. 1978', size: 54, spacing: 10 },
      ],
    },
  },
  {
    sku: 'TL-MOTO-002',
    slug: 'open-road-sunset-tee',
    name: 'Open Road Sunset Tee',
    description:
      'Retro striped sunset, a lone bike and nothing but highway ahead. Soft-hand print that stays comfortable on long days in the saddle.',
    price: '29.99',
    category: 'motorcycle',
    tags: ['sunset', 'retro', 'open road'],
    sizes: WITH_XS,
    featured: true,
    daysAgo: 9,
    palette: OXBLOOD,
    front: { kind: 'sunset', icon: 'motorcycle', title: 'OPEN ROAD', subtitle: 'CHASE THE HORIZON' },
    back: {
      kind: 'stack',
      lines: [
        { text: 'NO DESTINATION', size: 130, spacing: 6 },
        { text: 'just the ride', size: 120, serif: true, italic: true, color: 'accent', rule: true },
        { text: 'OPEN ROAD SUPPLY CO.', size: 54, spacing: 10 },
      ],
    },
  },
  {
    sku: 'TL-MOTO-003',
    slug: 'piston-club-crest-tee',
    name: 'Piston Club Crest Tee',
    description:
      'A small left-chest crest up front and a full members-only emblem across the back. For the friends you ride, wrench and swap stories with.',
    price: '26.99',
    category: 'motorcycle',
    tags: ['club', 'crest', 'piston', 'garage'],
    chestPosition: 'left_chest',
    defaultSide: 'back',
    daysAgo: 15,
    palette: OLIVE,
    front: { kind: 'crest', icon: 'piston', title: 'PISTON CLUB', banner: 'MEMBERS ONLY', left: 'EST', right: '1984' },
    back: {
      kind: 'emblem',
      items: [
        { icon: 'piston', x: 600, y: 470, size: 560, rotate: -35 },
        { icon: 'piston', x: 600, y: 470, size: 560, rotate: 35 },
      ],
      title: 'PISTON CLUB',
      subtitle: 'GREASE · GRIT · GLORY',
    },
  },
  {
    sku: 'TL-MOTO-004',
    slug: 'born-to-ride-winged-tee',
    name: 'Born to Ride Winged Tee',
    description:
      'Spread wings, a spoked wheel and a banner that says it all. A bold chest print in the tradition of old-school riding club patches.',
    price: '24.99',
    category: 'motorcycle',
    tags: ['wings', 'classic', 'biker'],
    daysAgo: 22,
    palette: RUST,
    front: { kind: 'winged', icon: 'motorcycle', title: 'BORN TO RIDE', subtitle: 'IRON · WIND · ROAD' },
    back: { kind: 'badge', top: 'BORN TO RIDE', bottom: 'FORCED TO WORK', icon: 'gear' },
  },
  {
    sku: 'TL-MOTO-005',
    slug: 'throttle-therapy-tee',
    name: 'Throttle Therapy Tee',
    description:
      'A tachometer pinned near the redline: the only kind of therapy that comes with a full tank. Printed with durable water-based inks.',
    price: '25.99',
    category: 'motorcycle',
    tags: ['funny', 'tachometer', 'redline'],
    daysAgo: 31,
    palette: OXBLOOD,
    front: { kind: 'gauge', title: 'THROTTLE THERAPY', subtitle: 'NO APPOINTMENT NEEDED' },
    back: {
      kind: 'stack',
      icon: 'piston',
      iconSize: 320,
      lines: [
        { text: 'CHEAPER', size: 190, spacing: 10 },
        { text: 'than a', size: 100, serif: true, italic: true, color: 'accent' },
        { text: 'THERAPIST', size: 170, spacing: 10 },
      ],
    },
  },
  {
    sku: 'TL-MOTO-006',
    slug: 'chasing-curves-mountain-tee',
    name: 'Chasing Curves Mountain Tee',
    description:
      'Snow-capped peaks and a winding two-lane road for riders who take the long way on purpose. Relaxed fit, pre-shrunk cotton.',
    price: '27.99',
    category: 'motorcycle',
    tags: ['mountains', 'touring', 'adventure'],
    sizes: WITH_XS,
    daysAgo: 45,
    palette: OLIVE,
    front: {
      kind: 'emblem',
      items: [
        { icon: 'mountains', x: 600, y: 420, size: 820 },
        { icon: 'motorcycle', x: 600, y: 700, size: 340 },
      ],
      title: 'CHASING CURVES',
      subtitle: 'TAKE THE LONG WAY',
    },
    back: {
      kind: 'stack',
      icon: 'sun',
      iconSize: 320,
      lines: [
        { text: 'LIFE IS BETTER', size: 130, spacing: 6 },
        { text: 'on two wheels', size: 110, serif: true, italic: true, color: 'accent' },
      ],
    },
  },
  {
    sku: 'TL-MOTO-007',
    slug: 'iron-horse-rally-2023-tee',
    name: 'Iron Horse Rally 2023 Tee',
    description: 'The official tee of our 2023 summer rally. This limited run has ended; thanks to everyone who rode with us.',
    price: '32.99',
    category: 'motorcycle',
    tags: ['rally', 'limited edition', '2023'],
    active: false,
    daysAgo: 300,
    palette: RUST,
    front: { kind: 'badge', top: 'IRON HORSE RALLY', bottom: 'SUMMER · 2023', icon: 'motorcycle' },
    back: {
      kind: 'stack',
      lines: [
        { text: 'I RODE THE', size: 120, spacing: 8 },
        { text: 'IRON HORSE', size: 190, spacing: 8, color: 'accent', rule: true },
        { text: 'SUMMER RALLY 2023', size: 60, spacing: 10 },
      ],
    },
  },
  {
    sku: 'TL-CAR-001',
    slug: 'american-muscle-tee',
    name: 'American Muscle Tee',
    description:
      'A low-slung fastback in navy and racing red, built for anyone who still gets goosebumps at a cold start. Tagless, side-seamed and made to last.',
    price: '27.99',
    category: 'car',
    tags: ['muscle car', 'v8', 'classic'],
    featured: true,
    daysAgo: 2,
    palette: RACING,
    front: {
      kind: 'stack',
      icon: 'car',
      iconSize: 720,
      lines: [
        { text: 'AMERICAN MUSCLE', size: 140, spacing: 4, rule: true },
        { text: 'V8 · REAR WHEEL DRIVE · 1969', size: 50, spacing: 8 },
      ],
    },
    back: { kind: 'badge', top: 'BIG BLOCK', bottom: 'DISPLACEMENT MATTERS', icon: 'piston', banner: 'V8 POWER' },
  },
  {
    sku: 'TL-CAR-002',
    slug: 'garage-built-tee',
    name: 'Garage Built Tee',
    description:
      'Crossed wrenches on the chest and a full badge on the back, for builders who did it themselves, skinned knuckles and all.',
    price: '24.99',
    category: 'car',
    tags: ['garage', 'wrench', 'diy'],
    chestPosition: 'left_chest',
    featured: true,
    daysAgo: 7,
    palette: PETROL,
    front: {
      kind: 'emblem',
      items: [
        { icon: 'wrench', x: 600, y: 450, size: 800, rotate: 45 },
        { icon: 'wrench', x: 600, y: 450, size: 800, rotate: -45 },
        { icon: 'gear', x: 600, y: 450, size: 230 },
      ],
      title: 'GARAGE BUILT',
      subtitle: 'NOT BOUGHT',
    },
    back: { kind: 'badge', top: 'GARAGE BUILT', bottom: 'SKINNED KNUCKLES · 2024', icon: 'wrench', banner: 'NOT BOUGHT' },
  },
  {
    sku: 'TL-CAR-003',
    slug: 'finish-strong-checkered-flag-tee',
    name: 'Finish Strong Checkered Flag Tee',
    description: 'Crossed checkered flags for race-day regulars, track-day rookies and anyone who never lifts before the line.',
    price: '26.99',
    category: 'car',
    tags: ['racing', 'checkered flag', 'motorsport'],
    daysAgo: 12,
    palette: RACING,
    front: {
      kind: 'emblem',
      items: [
        { icon: 'flag', x: 760, y: 480, size: 560, rotate: 18 },
        { icon: 'flag', x: 440, y: 480, size: 560, rotate: -18, mirror: true },
      ],
      title: 'FINISH STRONG',
      subtitle: 'SUNDAY IS RACE DAY',
    },
    back: {
      kind: 'stack',
      lines: [
        { text: 'SLOW IN', size: 180, spacing: 10 },
        { text: 'FAST OUT', size: 180, spacing: 10, color: 'accent', rule: true },
        { text: 'THE ONLY RULE OF THE TRACK', size: 50, spacing: 8 },
      ],
    },
  },
  {
    sku: 'TL-CAR-004',
    slug: 'certified-gearhead-tee',
    name: 'Certified Gearhead Tee',
    description: 'An official-looking seal for the person everyone calls when the check-engine light comes on. Fits true to size.',
    price: '25.99',
    category: 'car',
    tags: ['gearhead', 'funny', 'mechanic'],
    daysAgo: 19,
    palette: PETROL,
    front: { kind: 'badge', top: 'CERTIFIED GEARHEAD', bottom: 'TORQUE · GRIT · GREASE', icon: 'gear' },
    back: {
      kind: 'stack',
      lines: [
        { text: "I DON'T SNORE", size: 150, spacing: 6 },
        { text: "I dream I'm a", size: 110, serif: true, italic: true, color: 'accent' },
        { text: 'V8', size: 330, spacing: 10 },
      ],
    },
  },
  {
    sku: 'TL-CAR-005',
    slug: 'cruise-night-classic-plate-tee',
    name: 'Cruise Night Classic Plate Tee',
    description: 'A vintage license plate across the back and a small chest logo up front, made for Saturday nights on Main Street.',
    price: '24.99',
    category: 'car',
    tags: ['cruise night', 'license plate', 'hot rod'],
    defaultSide: 'back',
    daysAgo: 27,
    palette: RACING,
    front: {
      kind: 'stack',
      icon: 'car',
      iconSize: 600,
      lines: [
        { text: 'CRUISE NIGHT', size: 150, spacing: 8 },
        { text: 'Saturdays on Main', size: 90, serif: true, italic: true, color: 'accent' },
      ],
    },
    back: { kind: 'plate', top: 'Cruise Night', main: 'CLASSIC', bottom: 'SATURDAYS · MAIN STREET', icon: 'car' },
  },
  {
    sku: 'TL-CAR-006',
    slug: 'sunday-drive-retro-tee',
    name: 'Sunday Drive Retro Tee',
    description: 'A synthwave sunset and a fastback with the windows down. Our softest tee, in a slightly longer modern cut.',
    price: '28.99',
    category: 'car',
    tags: ['retro', 'sunset', 'synthwave'],
    sizes: WITH_XS,
    daysAgo: 38,
    palette: SYNTH,
    front: { kind: 'sunset', icon: 'car', title: 'SUNDAY DRIVE', subtitle: 'WINDOWS DOWN' },
    back: {
      kind: 'stack',
      lines: [
        { text: 'SLOW ROADS', size: 170, spacing: 8 },
        { text: 'good company', size: 110, serif: true, italic: true, color: 'accent' },
        { text: 'NO HURRY', size: 170, spacing: 8 },
      ],
    },
  },
  {
    sku: 'TL-CHR-001',
    slug: 'faith-over-fear-tee',
    name: 'Faith Over Fear Tee',
    description:
      'A bold, simple statement with a cross above it, and Isaiah 41:10 across the back. Printed on a heather tee that gets softer with every wash.',
    price: '24.99',
    category: 'christian',
    tags: ['faith', 'cross', 'isaiah'],
    featured: true,
    daysAgo: 1,
    palette: NAVY_GOLD,
    front: {
      kind: 'stack',
      icon: 'cross',
      iconSize: 300,
      lines: [
        { text: 'FAITH', size: 240, spacing: 12 },
        { text: 'over', size: 120, serif: true, italic: true, color: 'accent' },
        { text: 'FEAR', size: 240, spacing: 12 },
      ],
    },
    back: {
      kind: 'stack',
      lines: [
        { text: 'FEAR NOT,', size: 170, serif: true, spacing: 6 },
        { text: 'for I am with you', size: 100, serif: true, italic: true, color: 'accent', rule: true },
        { text: 'ISAIAH 41:10', size: 60, spacing: 12 },
      ],
    },
  },
  {
    sku: 'TL-CHR-002',
    slug: 'grace-upon-grace-tee',
    name: 'Grace Upon Grace Tee',
    description: 'An elegant serif design with a dove and olive branch, inspired by John 1:16. A gentle reminder of gifts we did not earn.',
    price: '26.99',
    category: 'christian',
    tags: ['grace', 'dove', 'john'],
    sizes: WITH_XS,
    featured: true,
    daysAgo: 6,
    palette: TEAL,
    front: {
      kind: 'stack',
      icon: 'dove',
      iconSize: 360,
      lines: [
        { text: 'GRACE', size: 210, serif: true, spacing: 14 },
        { text: 'upon', size: 110, serif: true, italic: true, color: 'accent' },
        { text: 'GRACE', size: 210, serif: true, spacing: 14, rule: true },
        { text: 'JOHN 1:16', size: 56, spacing: 12 },
      ],
    },
    back: { kind: 'badge', top: 'GRACE UPON GRACE', bottom: 'JOHN 1:16', icon: 'dove' },
  },
  {
    sku: 'TL-CHR-003',
    slug: 'be-still-mountain-sunrise-tee',
    name: 'Be Still Mountain Sunrise Tee',
    description: 'Morning light over quiet peaks and the words of Psalm 46:10. A calm design for loud weeks.',
    price: '27.99',
    category: 'christian',
    tags: ['psalms', 'mountains', 'sunrise'],
    sizes: WITH_XS,
    featured: true,
    daysAgo: 11,
    palette: NAVY_GOLD,
    front: { kind: 'sunset', icon: 'mountains', title: 'BE STILL', subtitle: 'PSALM 46:10' },
    back: {
      kind: 'stack',
      lines: [
        { text: 'BE STILL', size: 200, serif: true, spacing: 10 },
        { text: 'and know that', size: 100, serif: true, italic: true, color: 'accent' },
        { text: 'I AM GOD', size: 200, serif: true, spacing: 10, rule: true },
        { text: 'PSALM 46:10', size: 58, spacing: 12 },
      ],
    },
  },
  {
    sku: 'TL-CHR-004',
    slug: 'walk-by-faith-tee',
    name: 'Walk by Faith Tee',
    description: 'A winding path toward the cross, from 2 Corinthians 5:7. Comfortable enough for every step of the journey.',
    price: '25.99',
    category: 'christian',
    tags: ['faith', 'journey', 'corinthians'],
    daysAgo: 17,
    palette: TEAL,
    front: {
      kind: 'emblem',
      items: [
        { icon: 'road', x: 600, y: 520, size: 700 },
        { icon: 'cross', x: 620, y: 250, size: 220 },
      ],
      title: 'WALK BY FAITH',
      subtitle: '2 CORINTHIANS 5:7',
    },
    back: {
      kind: 'stack',
      lines: [
        { text: 'WALK BY FAITH', size: 150, serif: true, spacing: 6 },
        { text: 'not by sight', size: 120, serif: true, italic: true, color: 'accent', rule: true },
        { text: '2 CORINTHIANS 5:7', size: 56, spacing: 10 },
      ],
    },
  },
  {
    sku: 'TL-CHR-005',
    slug: 'fishers-of-men-tee',
    name: 'Fishers of Men Tee',
    description:
      'A small ichthys seal on the chest and the full call of Matthew 4:19 on the back. A great pick for youth groups and mission trips.',
    price: '24.99',
    category: 'christian',
    tags: ['ichthys', 'fish', 'matthew'],
    chestPosition: 'left_chest',
    daysAgo: 25,
    palette: PLUM,
    front: { kind: 'badge', top: 'FISHERS OF MEN', bottom: 'MATTHEW 4:19', icon: 'fish' },
    back: {
      kind: 'stack',
      icon: 'fish',
      iconSize: 340,
      lines: [
        { text: 'FOLLOW ME', size: 180, serif: true, spacing: 8 },
        { text: 'and I will make you', size: 90, serif: true, italic: true, color: 'accent' },
        { text: 'FISHERS OF MEN', size: 140, serif: true, spacing: 6, rule: true },
        { text: 'MATTHEW 4:19', size: 56, spacing: 12 },
      ],
    },
  },
  {
    sku: 'TL-CHR-006',
    slug: 'anchor-of-hope-tee',
    name: 'Anchor of Hope Tee',
    description:
      'An anchor crest inspired by Hebrews 6:19: hope as an anchor for the soul, firm and secure. Midweight cotton that holds its shape.',
    price: '26.99',
    category: 'christian',
    tags: ['hope', 'anchor', 'hebrews'],
    daysAgo: 34,
    palette: PLUM,
    front: { kind: 'crest', icon: 'anchor', title: 'ANCHOR OF HOPE', banner: 'HEBREWS 6:19', left: 'FIRM', right: 'SECURE' },
    back: {
      kind: 'stack',
      icon: 'crown',
      iconSize: 300,
      lines: [
        { text: 'HOPE', size: 260, serif: true, spacing: 16 },
        { text: 'anchors the soul', size: 110, serif: true, italic: true, color: 'accent' },
      ],
    },
  },
];

export interface DemoPlan {
  name: string;
  slug: string;
  description: string;
  price: string;
  interval: BillingInterval;
  categoryLimit: number;
  features: string[];
}

export const PLANS: DemoPlan[] = [
  {
    name: 'Monthly Tee',
    slug: 'monthly-tee',
    description: 'One members-only tee every month from the category you love most.',
    price: '24.00',
    interval: 'monthly',
    categoryLimit: 1,
    features: ['1 exclusive tee every month', 'Choose 1 category', 'Free shipping', 'Cancel anytime'],
  },
  {
    name: 'All Access',
    slug: 'all-access',
    description: 'A tee every month from any category, first pick of every new drop and a standing discount.',
    price: '34.00',
    interval: 'monthly',
    categoryLimit: 0,
    features: ['1 exclusive tee every month', 'All categories', 'Early access to new drops', '15% off store orders', 'Free shipping'],
  },
  {
    name: 'Quarterly Box',
    slug: 'quarterly-box',
    description: 'Three tees every three months from two categories of your choice.',
    price: '64.00',
    interval: 'quarterly',
    categoryLimit: 2,
    features: ['3 tees every quarter', 'Choose 2 categories', 'Members-only designs', 'Free shipping', 'Skip or cancel anytime'],
  },
];

export interface DemoCustomer {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  shipping: Address;
  /** Omitted: same as shipping. */
  billing?: Address;
  confirmed: boolean;
  /** Days since the last sign-in; omitted: never signed in. */
  lastSignInDaysAgo?: number;
  joinedDaysAgo: number;
}

const address = (street: string, city: string, state: string, zip: string): Address => ({ street, city, state, zip, country: 'USA' });

export const CUSTOMERS: DemoCustomer[] = [
  {
    email: 'jake.rider@example.com',
    firstName: 'Jake',
    lastName: 'Rider',
    phone: '(406) 555-0142',
    shipping: address('218 W Main St', 'Bozeman', 'MT', '59715'),
    confirmed: true,
    lastSignInDaysAgo: 1,
    joinedDaysAgo: 90,
  },
  {
    email: 'maria.alvarez@example.com',
    firstName: 'Maria',
    lastName: 'Alvarez',
    phone: '(512) 555-0187',
    shipping: address('1407 S Congress Ave, Apt 3B', 'Austin', 'TX', '78704'),
    billing: address('600 Congress Ave, Suite 1200', 'Austin', 'TX', '78701'),
    confirmed: true,
    lastSignInDaysAgo: 2,
    joinedDaysAgo: 60,
  },
  {
    email: 'daniel.brooks@example.com',
    firstName: 'Daniel',
    lastName: 'Brooks',
    phone: '(615) 555-0119',
    shipping: address('902 Fatherland St', 'Nashville', 'TN', '37206'),
    confirmed: true,
    lastSignInDaysAgo: 5,
    joinedDaysAgo: 48,
  },
  {
    email: 'grace.thompson@example.com',
    firstName: 'Grace',
    lastName: 'Thompson',
    phone: '(803) 555-0163',
    shipping: address('1520 Senate St', 'Columbia', 'SC', '29201'),
    confirmed: true,
    joinedDaysAgo: 30,
  },
  {
    email: 'tom.keller@example.com',
    firstName: 'Tom',
    lastName: 'Keller',
    phone: '(313) 555-0128',
    shipping: address('2745 E Jefferson Ave', 'Detroit', 'MI', '48207'),
    confirmed: false,
    joinedDaysAgo: 4,
  },
];

export interface DemoOrderItem {
  sku: string;
  size: Size;
  quantity: number;
  printStatus: PrintStatus;
}

export interface DemoOrder {
  customer: string;
  daysAgo: number;
  status: OrderStatus;
  payment: PaymentStatus;
  tracking?: string;
  notes?: string;
  items: DemoOrderItem[];
}

export const ORDERS: DemoOrder[] = [
  {
    customer: 'jake.rider@example.com',
    daysAgo: 70,
    status: 'delivered',
    payment: 'paid',
    tracking: '1Z999AA10123456784',
    items: [
      { sku: 'TL-MOTO-004', size: '2XL', quantity: 1, printStatus: 'ready' },
      { sku: 'TL-MOTO-006', size: 'L', quantity: 2, printStatus: 'ready' },
    ],
  },
  {
    customer: 'jake.rider@example.com',
    daysAgo: 40,
    status: 'delivered',
    payment: 'paid',
    tracking: '1Z999AA10123459921',
    items: [
      { sku: 'TL-MOTO-001', size: 'M', quantity: 1, printStatus: 'ready' },
      { sku: 'TL-MOTO-003', size: 'L', quantity: 1, printStatus: 'ready' },
    ],
  },
  {
    customer: 'maria.alvarez@example.com',
    daysAgo: 33,
    status: 'delivered',
    payment: 'paid',
    tracking: '9400111899223345567012',
    items: [{ sku: 'TL-CHR-002', size: 'S', quantity: 2, printStatus: 'ready' }],
  },
  {
    customer: 'grace.thompson@example.com',
    daysAgo: 20,
    status: 'cancelled',
    payment: 'refunded',
    notes: 'Cancelled at the customer’s request before printing; refunded in full.',
    items: [{ sku: 'TL-CHR-005', size: 'M', quantity: 3, printStatus: 'pending' }],
  },
  {
    customer: 'tom.keller@example.com',
    daysAgo: 15,
    status: 'cancelled',
    payment: 'failed',
    notes: 'Payment was declined twice; order cancelled automatically.',
    items: [{ sku: 'TL-CAR-005', size: '3XL', quantity: 1, printStatus: 'pending' }],
  },
  {
    customer: 'daniel.brooks@example.com',
    daysAgo: 9,
    status: 'shipped',
    payment: 'paid',
    tracking: '9400111899223348812345',
    items: [
      { sku: 'TL-CHR-003', size: 'L', quantity: 1, printStatus: 'ready' },
      { sku: 'TL-CHR-004', size: 'XL', quantity: 1, printStatus: 'ready' },
    ],
  },
  {
    customer: 'grace.thompson@example.com',
    daysAgo: 6,
    status: 'shipped',
    payment: 'paid',
    tracking: '1Z999AA10123462260',
    items: [{ sku: 'TL-CHR-001', size: 'M', quantity: 1, printStatus: 'ready' }],
  },
  {
    customer: 'jake.rider@example.com',
    daysAgo: 3,
    status: 'processing',
    payment: 'paid',
    items: [
      { sku: 'TL-MOTO-002', size: 'XL', quantity: 1, printStatus: 'printing' },
      { sku: 'TL-MOTO-005', size: 'XL', quantity: 1, printStatus: 'pending' },
    ],
  },
  {
    customer: 'tom.keller@example.com',
    daysAgo: 2,
    status: 'processing',
    payment: 'paid',
    notes: 'Gift: please leave the packing slip out.',
    items: [
      { sku: 'TL-CAR-001', size: '2XL', quantity: 1, printStatus: 'printing' },
      { sku: 'TL-CAR-002', size: '2XL', quantity: 1, printStatus: 'ready' },
    ],
  },
  {
    customer: 'maria.alvarez@example.com',
    daysAgo: 1,
    status: 'pending',
    payment: 'pending',
    items: [
      { sku: 'TL-CAR-006', size: 'S', quantity: 1, printStatus: 'pending' },
      { sku: 'TL-CHR-003', size: 'XS', quantity: 1, printStatus: 'pending' },
    ],
  },
  {
    customer: 'daniel.brooks@example.com',
    daysAgo: 0.5,
    status: 'pending',
    payment: 'failed',
    notes: 'Card declined at checkout; customer was asked to update the payment method.',
    items: [{ sku: 'TL-CAR-004', size: 'L', quantity: 1, printStatus: 'pending' }],
  },
];

export interface DemoContact {
  name: string;
  email: string;
  subject: string;
  message: string;
  status: ContactStatus;
  daysAgo: number;
}

export const CONTACTS: DemoContact[] = [
  {
    name: 'Ben Carter',
    email: 'ben.carter@example.com',
    subject: 'Switching categories in the Quarterly Box',
    message:
      'Hi there! If I sign up for the Quarterly Box with Motorcycle and Car, can I switch one of them to Christian for the next box? It would make a great gift for my dad.',
    status: 'resolved',
    daysAgo: 35,
  },
  {
    name: 'Maria Alvarez',
    email: 'maria.alvarez@example.com',
    subject: 'Exchange for a bigger size',
    message:
      'The Grace Upon Grace shirts are lovely, but the small runs a little snug on me. Could I exchange one of them for a medium? I still have the packing slip.',
    status: 'resolved',
    daysAgo: 28,
  },
  {
    name: 'Ray Simmons',
    email: 'ray.simmons@example.com',
    subject: 'Youth group order',
    message:
      'Our youth group loved the Be Still tee. Would you consider a version with Joshua 1:9 for our summer camp? We would order around 40 shirts in mixed sizes.',
    status: 'read',
    daysAgo: 8,
  },
  {
    name: 'Daniel Brooks',
    email: 'daniel.brooks@example.com',
    subject: 'Tracking has not updated',
    message:
      'Hi, my order shows as shipped but the tracking number has not updated in two days. Could you check on it when you get a chance? Thanks!',
    status: 'read',
    daysAgo: 4,
  },
  {
    name: 'Linda Park',
    email: 'linda.park@example.com',
    subject: 'Matching tees for our charity ride',
    message:
      'Our riding club (about 25 members) is doing a charity ride for the children’s hospital in June. Do you offer group pricing, and could you add our club name to the back of the Ride Free design?',
    status: 'new',
    daysAgo: 1,
  },
  {
    name: 'Chris Nguyen',
    email: 'chris.nguyen@example.com',
    subject: 'How do your tees fit?',
    message:
      'Quick question before I order: how do your shirts fit compared to a standard crew neck? I usually wear a large but like a little extra room in the shoulders.',
    status: 'new',
    daysAgo: 0.1,
  },
];

export interface DemoArtwork {
  name: string;
  description: string | null;
  /** The product whose artwork is reused, and which side. */
  sku: string;
  side: MockupSide;
  tags: string[];
  daysAgo: number;
}

export const ARTWORK: DemoArtwork[] = [
  {
    name: 'Ride Free badge',
    description: 'Round vintage badge with a café racer.',
    sku: 'TL-MOTO-001',
    side: 'front',
    tags: ['motorcycle', 'badge', 'vintage'],
    daysAgo: 50,
  },
  {
    name: 'Open Road sunset',
    description: 'Striped retro sunset with a motorcycle silhouette.',
    sku: 'TL-MOTO-002',
    side: 'front',
    tags: ['motorcycle', 'sunset', 'retro'],
    daysAgo: 46,
  },
  {
    name: 'Crossed wrenches',
    description: 'Garage Built emblem with a gear.',
    sku: 'TL-CAR-002',
    side: 'front',
    tags: ['car', 'garage', 'wrench'],
    daysAgo: 41,
  },
  { name: 'Cruise Night plate', description: null, sku: 'TL-CAR-005', side: 'back', tags: ['car', 'license plate'], daysAgo: 36 },
  {
    name: 'Grace Upon Grace',
    description: 'Serif lettering with a dove, John 1:16.',
    sku: 'TL-CHR-002',
    side: 'front',
    tags: ['christian', 'dove', 'scripture'],
    daysAgo: 24,
  },
  {
    name: 'Be Still sunrise',
    description: 'Mountain sunrise with Psalm 46:10.',
    sku: 'TL-CHR-003',
    side: 'front',
    tags: ['christian', 'mountains', 'sunset', 'scripture'],
    daysAgo: 13,
  },
];
