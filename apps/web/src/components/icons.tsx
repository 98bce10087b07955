/** Menu icons by the name the server sends (menu entry `icon`). */
import {
  ApartmentOutlined, AuditOutlined, BarChartOutlined, CheckSquareOutlined, ClusterOutlined, DownloadOutlined, EyeOutlined,
  FileDoneOutlined, FileSearchOutlined, FileTextOutlined, FolderOpenOutlined, FormOutlined, HistoryOutlined, HomeOutlined,
  KeyOutlined, LineChartOutlined, LoginOutlined, NotificationOutlined, PrinterOutlined, QuestionCircleOutlined, SafetyCertificateOutlined,
  SettingOutlined, ShopOutlined, SolutionOutlined, TeamOutlined, UserOutlined, AppstoreOutlined,
} from '@ant-design/icons';
import { cloneElement, type ReactElement, type ReactNode } from 'react';

const ICONS: Record<string, ReactNode> = {
  ApartmentOutlined: <ApartmentOutlined />, AuditOutlined: <AuditOutlined />, BarChartOutlined: <BarChartOutlined />,
  CheckSquareOutlined: <CheckSquareOutlined />, ClusterOutlined: <ClusterOutlined />, DownloadOutlined: <DownloadOutlined />,
  EyeOutlined: <EyeOutlined />, FileDoneOutlined: <FileDoneOutlined />, FileSearchOutlined: <FileSearchOutlined />,
  FileTextOutlined: <FileTextOutlined />, FolderOpenOutlined: <FolderOpenOutlined />, FormOutlined: <FormOutlined />,
  HistoryOutlined: <HistoryOutlined />, HomeOutlined: <HomeOutlined />, KeyOutlined: <KeyOutlined />,
  LineChartOutlined: <LineChartOutlined />, LoginOutlined: <LoginOutlined />, NotificationOutlined: <NotificationOutlined />, PrinterOutlined: <PrinterOutlined />,
  QuestionCircleOutlined: <QuestionCircleOutlined />, SafetyCertificateOutlined: <SafetyCertificateOutlined />,
  SettingOutlined: <SettingOutlined />, ShopOutlined: <ShopOutlined />, SolutionOutlined: <SolutionOutlined />,
  TeamOutlined: <TeamOutlined />, UserOutlined: <UserOutlined />,
};

/** Decorative beside the entry's Chinese label: hidden from screen readers, whose English icon name it would read. */
export const menuIcon = (name: string | null): ReactNode => cloneElement(((name && ICONS[name]) || <AppstoreOutlined />) as ReactElement<{ 'aria-hidden'?: boolean }>, { 'aria-hidden': true });
