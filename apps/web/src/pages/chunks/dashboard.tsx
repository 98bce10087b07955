export { default } from '../dashboard/DashboardPage.tsx';
