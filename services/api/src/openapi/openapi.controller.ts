import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Header } from '@nestjs/common';
import { ALIAS_ROUTES, RPC_ROUTES } from '../rpc/rpc-routes';
import { openApiDocument } from './openapi-document';

const VERSION = (
  JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string }
).version;

/** Swagger UI, served from this service (swagger-ui-dist under /docs/assets): it works offline. */
const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Engram API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <main id="reference"></main>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true, persistAuthorization: false });
  </script>
</body>
</html>`;

/** The OpenAPI document and its reference page; both public (they hold no tenant's data). */
@Controller()
export class OpenApiController {
  private readonly document = JSON.stringify(openApiDocument([...RPC_ROUTES, ...ALIAS_ROUTES], VERSION));

  @Get('openapi.json')
  @Header('content-type', 'application/json')
  openapi(): string {
    return this.document;
  }

  @Get('docs')
  @Header('content-type', 'text/html; charset=utf-8')
  docs(): string {
    return REFERENCE_PAGE;
  }
}
