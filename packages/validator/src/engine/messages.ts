/**
 * Renders rule messages: `{{name}}` placeholders filled from a diagnostic's `data`.
 */

/** Replaces every `{{key}}` in `template` with `data[key]` (unknown keys are left as written). */
export function renderMessage(template: string, data: Record<string, string> | undefined): string {
  if (!data) return template;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (key in data ? (data[key] as string) : whole));
}
