export { default } from '../login/LoginPage.tsx';
