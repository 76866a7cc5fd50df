export { searchRulesRoutes } from './routes';
