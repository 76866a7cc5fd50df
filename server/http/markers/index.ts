export { markerRoutes as markersRoutes } from './routes';
