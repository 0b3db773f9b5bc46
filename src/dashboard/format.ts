/** Dates and durations in the reader's locale. */
export function when(iso: string | undefined | null): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function duration(fromIso: string, toIso: string | undefined): string {
  if (!toIso) return '—';
  const seconds = (Date.parse(toIso) - Date.parse(fromIso)) / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}
