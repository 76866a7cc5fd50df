import type { AppRoute } from './routes';

/** What every screen receives from the route table: its route and the path's parameters. */
export interface RouteViewProps {
  route: AppRoute;
  params: Readonly<Record<string, string>>;
}
