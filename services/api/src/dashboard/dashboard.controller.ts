import { Controller, Get, Header, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiProblem } from '../http/problem';
import { dashboardDist, isDashboardPath, readDashboardPage } from './dashboard-assets';

/**
 * The memory dashboard's page at / and at every path it routes in the browser (a reload of
 * /agents/bot works). Its assets are served from dist/assets (main.ts); the page holds no
 * tenant's data, so it is public: the data comes from /v1 with the key signed in.
 */
@Controller()
export class DashboardController {
  private readonly page = readDashboardPage(dashboardDist());

  @Get('*')
  @Header('content-type', 'text/html; charset=utf-8')
  // A new build names new assets: the page itself is asked for again each time.
  @Header('cache-control', 'no-cache')
  serve(@Req() request: FastifyRequest): string {
    if (!isDashboardPath(request.url))
      throw new ApiProblem('NOT_FOUND', `no route GET ${request.url.split('?')[0]} (see /openapi.json)`);
    if (this.page === null)
      throw new ApiProblem('NOT_FOUND', 'the dashboard is not built (npm run build builds it)');
    return this.page;
  }
}
