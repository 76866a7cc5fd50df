export { emailTemplatesRoutes } from './routes';
