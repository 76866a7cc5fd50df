export { analysisGroupsRoutes } from './routes';
