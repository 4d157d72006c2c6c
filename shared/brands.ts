/**
 * The eight brands (subsites 0 to 7). One build serves all of them: the CloudFront Function (or the
 * embedded runtime) serves `brands/<id>/index.html`, whose root element carries `data-subsite`, and
 * the browser picks title, logo, colours, support address and terms link from here.
 *
 * Pure data: no React, no DOM. The web app, the build (per-brand index.html) and the server (e-mail
 * texts) all read it.
 */
import type { Language } from './schemas/common';

export type BrandId = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

export interface BrandBanner {
  /** i18n key of the banner text on the login page. */
  readonly textKey: string;
  /** i18n key of the link text. */
  readonly linkKey: string;
  /** The other site the banner points to. */
  readonly url: string;
}

export interface Brand {
  readonly id: BrandId;
  /** Product name: the document title and the logo's alt text. */
  readonly title: string;
  /**
   * Primary colour (the 7th shade, index 6, of the Mantine palette built from it). Chosen so white
   * text on it, and it as text on white, reach WCAG AA (4.5:1); a test checks this.
   */
  readonly primary: string;
  /** Logo shown in the sidebar and on the public pages, under `web/public/`. */
  readonly logo: string;
  /** Square mark used as favicon. */
  readonly icon: string;
  /** The logo is the dark variant (brand 7). */
  readonly darkLogo: boolean;
  /** Login-page banner pointing to another site (brand 6). */
  readonly banner: BrandBanner | null;
  /** Support mail button in the header (brands 0, 2 and 3). */
  readonly supportEmail: string | null;
  /** Terms and conditions per language; the registration wizard shows the checkbox on brand 0 only. */
  readonly termsUrl: Readonly<Record<Language, string>>;
  /** Where customers cancel a subscription (account deletion page, GET /api/v1/contact-addresses). */
  readonly contactEmail: string;
  /** The phone number shown beside it, as it is dialled from abroad. */
  readonly contactPhone: string;
  /** SMS credits a newly registered account of the brand starts with (support adds more); 0 by default. */
  readonly startingSmsCredits: number;
}

function terms(host: string): Readonly<Record<Language, string>> {
  return { en: `https://${host}/en/terms`, sv: `https://${host}/sv/villkor`, no: `https://${host}/no/vilkar` };
}

export const brands: readonly Brand[] = [
  {
    id: 0,
    title: 'TrackPortal',
    primary: '#1f5fbf',
    logo: '/logos/brand-0.svg',
    icon: '/logos/icon-0.svg',
    darkLogo: false,
    banner: null,
    supportEmail: 'support@trackportal.example',
    termsUrl: terms('www.trackportal.example'),
    contactEmail: 'kundtjanst@trackportal.example',
    contactPhone: '+46 8 123 450 00',
    startingSmsCredits: 0,
  },
  {
    id: 1,
    title: 'FleetLine',
    primary: '#0b7263',
    logo: '/logos/brand-1.svg',
    icon: '/logos/icon-1.svg',
    darkLogo: false,
    banner: null,
    supportEmail: null,
    termsUrl: terms('www.fleetline.example'),
    contactEmail: 'customer@fleetline.example',
    contactPhone: '+46 31 700 12 00',
    startingSmsCredits: 0,
  },
  {
    id: 2,
    title: 'AssetScout',
    primary: '#b4490c',
    logo: '/logos/brand-2.svg',
    icon: '/logos/icon-2.svg',
    darkLogo: false,
    banner: null,
    supportEmail: 'help@assetscout.example',
    termsUrl: terms('www.assetscout.example'),
    contactEmail: 'help@assetscout.example',
    contactPhone: '+46 40 660 25 00',
    startingSmsCredits: 0,
  },
  {
    id: 3,
    title: 'NordTrack',
    primary: '#3f3fa8',
    logo: '/logos/brand-3.svg',
    icon: '/logos/icon-3.svg',
    darkLogo: false,
    banner: null,
    supportEmail: 'kundservice@nordtrack.example',
    termsUrl: terms('www.nordtrack.example'),
    contactEmail: 'kundservice@nordtrack.example',
    contactPhone: '+47 22 40 31 00',
    startingSmsCredits: 0,
  },
  {
    id: 4,
    title: 'MarinLog',
    primary: '#0a6a8a',
    logo: '/logos/brand-4.svg',
    icon: '/logos/icon-4.svg',
    darkLogo: false,
    banner: null,
    supportEmail: null,
    termsUrl: terms('www.marinlog.example'),
    contactEmail: 'kontakt@marinlog.example',
    contactPhone: '+46 8 555 104 00',
    startingSmsCredits: 0,
  },
  {
    id: 5,
    title: 'MachineWatch',
    primary: '#6b5a00',
    logo: '/logos/brand-5.svg',
    icon: '/logos/icon-5.svg',
    darkLogo: false,
    banner: null,
    supportEmail: null,
    termsUrl: terms('www.machinewatch.example'),
    contactEmail: 'service@machinewatch.example',
    contactPhone: '+46 13 120 51 00',
    startingSmsCredits: 0,
  },
  {
    id: 6,
    title: 'TripBook',
    primary: '#8a2f86',
    logo: '/logos/brand-6.svg',
    icon: '/logos/icon-6.svg',
    darkLogo: false,
    banner: { textKey: 'OtherSiteBanner', linkKey: 'OtherSiteLink', url: 'https://app.tripbook.example/' },
    supportEmail: null,
    termsUrl: terms('www.tripbook.example'),
    contactEmail: 'support@tripbook.example',
    contactPhone: '+46 90 710 62 00',
    startingSmsCredits: 0,
  },
  {
    id: 7,
    title: 'Nightfleet',
    primary: '#2f3a48',
    logo: '/logos/brand-7-dark.svg',
    icon: '/logos/icon-7.svg',
    darkLogo: true,
    banner: null,
    supportEmail: null,
    termsUrl: terms('www.nightfleet.example'),
    contactEmail: 'support@nightfleet.example',
    contactPhone: '+44 20 7946 0700',
    startingSmsCredits: 0,
  },
];

export const DEFAULT_BRAND_ID: BrandId = 0;

/** Brands that show the Support mail button. */
export const SUPPORT_BRANDS: readonly BrandId[] = brands.filter((b) => b.supportEmail !== null).map((b) => b.id);

export function isBrandId(value: unknown): value is BrandId {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 7;
}

/** The brand for an id, brand 0 for anything unknown (a missing or malformed subsite). */
export function brandById(id: unknown): Brand {
  const n = typeof id === 'string' && /^\d+$/.test(id.trim()) ? Number(id) : id;
  return isBrandId(n) ? (brands[n] as Brand) : (brands[DEFAULT_BRAND_ID] as Brand);
}

/**
 * `/administration/configure-alert-numbers` is registered only for users whose ParentID is this
 * account (spec section 2). The spec does not name it; this id is the one account the page belongs to.
 */
export const ALERT_NUMBERS_PARENT_ID = 'acc-alert-numbers';
