export { roleRoutes as accessGroupsRoutes } from './routes';
