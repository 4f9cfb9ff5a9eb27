import type { FastifyInstance } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';
import { DOCS_CSP } from './csp.js';

/**
 * The /docs page: Swagger UI (the files @fastify/swagger-ui ships, served from this origin) under
 * Touchline's name. Its base layout has no top bar, so no framework logo; the document comes from
 * /docs/json on the same origin; response schemas open as models, so every field's description (written
 * once, in the zod schemas) shows beside it.
 */


/** The mark of Touchline Studio: a pitch's halfway line and centre circle. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#14532d"/>
<circle cx="16" cy="16" r="7" fill="none" stroke="#fff" stroke-width="2.5"/>
<path d="M16 3v26" stroke="#fff" stroke-width="2.5"/>
</svg>
`;

/**
 * A quieter Swagger UI: Touchline's green and readable descriptions. Until the bundle has run, the
 * empty mount point shows the page's name instead of a blank page.
 */
const THEME_CSS = `
#swagger-ui:empty::before {
  content: "Touchline API reference";
  display: block; margin: 32px 20px; font: 700 36px/1.2 sans-serif; color: #14532d;
}
.swagger-ui .info { margin: 32px 0 16px; }
.swagger-ui .info .title { color: #14532d; }
.swagger-ui .info .title small { background: #14532d; }
.swagger-ui .opblock-tag { font-size: 20px; }
.swagger-ui .model .property.primitive, .swagger-ui .model-box .markdown p, .swagger-ui .parameter__name + .markdown p { color: #3b4151; }
.swagger-ui .btn.authorize { color: #14532d; border-color: #14532d; }
.swagger-ui .btn.authorize svg { fill: #14532d; }
`;

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The document as it is read: zod writes every `.int()` with the bounds of a safe integer, which say
 * nothing to a reader and fill the page with 16-digit numbers. Only those two bounds are dropped; every
 * type, enum, real bound and description stays.
 */
export function withoutSafeIntegerBounds<T>(doc: T): T {
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.type === 'integer') {
      if (o.minimum === -SAFE) delete o.minimum;
      if (o.maximum === SAFE) delete o.maximum;
    }
    Object.values(o).forEach(walk);
  };
  walk(doc);
  return doc;
}

export async function registerDocsPage(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    theme: {
      title: 'Touchline API reference',
      favicon: [{ filename: 'touchline.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: FAVICON }],
      css: [{ filename: 'touchline.css', content: THEME_CSS }],
    },
    uiConfig: {
      // The base layout is the page without Swagger's top bar (its logo and URL box).
      layout: 'BaseLayout',
      deepLinking: true,
      docExpansion: 'list',
      // Response bodies open as their schema with each field's description, not as an example.
      defaultModelRendering: 'model',
      // Deep enough that every nested field (e.g. ROI's future value's similar players) shows its description.
      defaultModelExpandDepth: 8,
      // Every schema is inline in its operation: the separate "Schemas" section would be empty.
      defaultModelsExpandDepth: -1,
      displayRequestDuration: true,
      persistAuthorization: true,
      // Bodies open as their described schema; "Try it out" turns them into an editor.
      tryItOutEnabled: false,
    },
    staticCSP: DOCS_CSP,
  });
}
