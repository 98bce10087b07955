export { default } from '../errors/NotFoundPage.tsx';
