export { settingsTextsRoutes } from './routes';
