// Drill-down: a point of a sweep opens in the lab page as a scenario link
// (the sharing module's format), so the full time series of that run is one
// click away and the link can be shared.

import type { Scenario } from '../engine/types';
import { shareUrl } from '../share/links';

export function drillHref(href: string, scenario: Scenario, defaults: Scenario): string {
  return shareUrl(href, scenario, defaults);
}
