import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { defineRoute } from '../route.js';

/** swagger-ui-dist files served under `/docs/assets/` (the reference page works offline). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const assetDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const cache = new Map<string, Buffer>();

const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '../openapi.json', dom_id: '#swagger-ui', deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Skein API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" type="image/png" href="docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/assets/swagger-ui-bundle.js"></script>
  <script src="docs/assets/init.js"></script>
</body>
</html>
`;

export const docsRoutes = [
  defineRoute({
    method: 'get',
    path: '/openapi.json',
    operationId: 'openapi',
    summary: 'OpenAPI 3.1 document',
    description: 'Generated from the zod schemas that validate requests.',
    tag: 'Service',
    responses: { 200: { description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
    async handler({ ctx, openApiDocument }) {
      ctx.body = openApiDocument();
    },
  }),
  defineRoute({
    method: 'get',
    path: '/docs',
    operationId: 'docs',
    summary: 'API reference (HTML)',
    description: 'Swagger UI rendering `/openapi.json`, served from the local swagger-ui-dist package (no network).',
    tag: 'Service',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    async handler({ ctx }) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE.replaceAll('docs/assets/', '/docs/assets/').replace("'../openapi.json'", "'/openapi.json'");
    },
  }),
  defineRoute({
    method: 'get',
    path: '/docs/assets/{file}',
    operationId: 'docsAsset',
    summary: 'Static asset of the API reference page',
    tag: 'Service',
    hidden: true,
    params: z.object({ file: z.string() }),
    responses: { 200: { description: 'Asset', contentType: 'application/octet-stream' } },
    async handler({ ctx, params }) {
      if (params.file === 'init.js') {
        ctx.type = 'text/javascript; charset=utf-8';
        ctx.body = INIT.replace("'../openapi.json'", "'/openapi.json'");
        return;
      }
      const type = ASSETS[params.file];
      if (!type) throw new ApiError('NotFoundError', { message: 'No such asset' });
      let body = cache.get(params.file);
      if (!body) {
        body = await readFile(path.join(assetDir, params.file));
        cache.set(params.file, body);
      }
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.type = type;
      ctx.body = body;
    },
  }),
];
