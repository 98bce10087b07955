/** antd's Drawer as a chunk of its own: Drawer.ts loads it. */
export { Drawer } from 'antd';
