/**
 * A licence's monthly periods: the k-th starts k calendar months after the licence (UTC), on the same day of the month
 * and time of day, or on the month's last day when it is shorter (a licence of 31 January renews on 28 or 29
 * February, then on 31 March). Each start is computed from the licence's own start, so short months do not drift it.
 */
export function periodStart(licenceStart: string, k: number): string {
  const start = new Date(licenceStart);
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth() + k;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const date = new Date(start);
  date.setUTCFullYear(year, month, Math.min(start.getUTCDate(), lastDay));
  return date.toISOString();
}

/** The period of a licence that holds `now` (never before the licence's start): its number, start and end. */
export function periodAt(licenceStart: string, now: string): { index: number; start: string; end: string } {
  const from = new Date(licenceStart);
  const at = new Date(now);
  let index = Math.max(0, (at.getUTCFullYear() - from.getUTCFullYear()) * 12 + at.getUTCMonth() - from.getUTCMonth());
  // The month count can overshoot by one (a licence of the 20th, seen on the 5th of a later month).
  while (index > 0 && periodStart(licenceStart, index) > now) index -= 1;
  return { index, start: periodStart(licenceStart, index), end: periodStart(licenceStart, index + 1) };
}
