import './telemetry';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { getAbsoluteFSPath } from 'swagger-ui-dist';
import { exitOnStartupFailure, runService } from '@engram/platform';
import { loadApiConfig } from './api.config';
import { ApiModule } from './api.module';
import { readOversizedBodiesThrough } from './http/oversized-bodies';
import { sendProblem } from './http/problem.filter';
import { dashboardDist } from './dashboard/dashboard-assets';

runService({
  name: 'api',
  loadConfig: loadApiConfig,
  module: (config) => ApiModule.register(config),
  httpAdapter: (config) =>
    new FastifyAdapter({
      bodyLimit: config.API_MAX_BODY_BYTES,
      routerOptions: { ignoreTrailingSlash: true },
    }),
  // mem0's clients call /v1/memories/ with a trailing slash; Engram's own routes have none.
  // Fastify's JSON parser only: every route takes JSON, anything else is a 415.
  bodyParser: false,
  configure: (app, config) => {
    const fastify = app as NestFastifyApplication;
    fastify.useStaticAssets({ root: getAbsoluteFSPath(), prefix: '/docs/assets/', decorateReply: false });
    // The dashboard's built assets: content-hashed names, so a browser may keep them for good;
    // the build wrote each script and stylesheet brotli- and gzip-compressed beside it too.
    const dashboardAssets = join(dashboardDist(), 'assets');
    if (existsSync(dashboardAssets))
      fastify.useStaticAssets({
        root: dashboardAssets,
        prefix: '/assets/',
        decorateReply: false,
        immutable: true,
        maxAge: '365d',
        preCompressed: true,
      });
    const server = fastify.getHttpAdapter().getInstance();
    server.removeContentTypeParser('text/plain');
    // mem0's client sends DELETE with a JSON content type and no body: an empty body is no body.
    const json = server.getDefaultJsonParser('error', 'error');
    server.removeContentTypeParser('application/json');
    server.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
      body === '' ? done(null, undefined) : json(request, body as string, done),
    );
    readOversizedBodiesThrough(server, config.API_MAX_BODY_BYTES);
    // What fails before a route runs (a body too large or not JSON) is answered as problem+json too.
    fastify
      .getHttpAdapter()
      .getInstance()
      .setErrorHandler((error, _request, reply) => sendProblem(reply, error));
  },
  http: (config) => ({ port: config.HTTP_PORT, host: config.HTTP_HOST }),
  // No transport: the api answers HTTP and calls the RPCs; it consumes nothing from NATS.
}).catch(exitOnStartupFailure('api'));
