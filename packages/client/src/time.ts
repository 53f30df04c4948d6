/**
 * Reads a time of the API: an ISO 8601 string (`GET /workflow/runs` and history metadata) or epoch
 * milliseconds (status responses, and runs lists of older servers).
 * @returns the Date, or null for null/undefined or an unparseable value
 */
export function parseApiTime(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
