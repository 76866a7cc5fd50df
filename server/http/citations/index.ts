export { citationsRoutes } from './routes';
