// Amounts are integer minor units everywhere; only what a person reads shows them in the currency.

/** Minor units of `currency` per major unit (100 for USD, 1 for JPY). */
export const minorPerMajor = (currency: string): number =>
  10 ** (new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2);

/** `minor` units as a person reads them: `$1,234.56`. */
export const formatMoney = (minor: number, currency: string): string =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / minorPerMajor(currency));
