/**
 * The Content-Security-Policy of the pages this origin serves: they load only their own files and
 * talk only to this origin; no framing, no plugins. Written once; a page differs only where it must.
 */
function policy(styleSrc: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${styleSrc}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Touchline Studio: no inline script or style. */
export const APP_CSP = policy("'self'");

/** The /docs page: Swagger UI sets style attributes from script, so styles allow 'unsafe-inline'; scripts come only from this origin. */
export const DOCS_CSP = policy("'self' 'unsafe-inline'");
