/** The build's brand configuration (apps/web/brands/<BRAND>.json), provided by vite.config.ts. */
declare module 'virtual:brand' {
  export const brand: import('../brands/brand.ts').BrandConfig;
}
