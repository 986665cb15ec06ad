import { Controller, Get, Header } from '@nestjs/common';
import { register } from 'prom-client';

/** Prometheus scrape endpoint (KEDA and dashboards read it). */
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('Content-Type', register.contentType)
  metrics(): Promise<string> {
    return register.metrics();
  }
}
