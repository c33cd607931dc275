/**
 * The route config — the ONE list of pages. The router (routing/buildRoutes) and the side menu
 * (routing/menu) are both derived from it. To add a page: create `pages/<area>/index.tsx` with a
 * default export and add an entry under the `/` layout with title, icon, access and `menu: true`.
 */
import {
  BarChartOutlined,
  CalculatorOutlined,
  CloudSyncOutlined,
  FlagOutlined,
  HistoryOutlined,
  HomeOutlined,
  ReadOutlined,
  SafetyCertificateOutlined,
  ScheduleOutlined,
  TeamOutlined,
  TrophyOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons'
import type { AppRoute } from './routing/types'

export const routes: AppRoute[] = [
  { path: '/login', title: '登录', component: () => import('./pages/login') },
  { path: '/403', title: '无权访问', component: () => import('./pages/exception/403') },
  { path: '/500', title: '服务器出错', component: () => import('./pages/exception/500') },
  {
    path: '/',
    component: () => import('./layouts/BasicLayout'),
    children: [
      { index: true, title: '首页', icon: <HomeOutlined />, access: 'member', menu: true, component: () => import('./pages/home') },
      {
        path: 'task',
        title: '我的任务',
        icon: <ScheduleOutlined />,
        access: 'member',
        menu: 'seeder',
        component: () => import('./pages/task'),
      },
      {
        path: 'salary',
        title: '我的工资',
        icon: <WalletOutlined />,
        access: 'member',
        menu: 'seeder',
        component: () => import('./pages/salary'),
      },
      { path: 'rank', title: '工资排行', icon: <TrophyOutlined />, access: 'member', menu: true, component: () => import('./pages/rank') },
      {
        path: 'task-assignment',
        title: '任务分配',
        icon: <TeamOutlined />,
        access: 'admin',
        menu: true,
        component: () => import('./pages/task-assignment'),
      },
      {
        path: 'admin-user',
        title: '管理员',
        icon: <SafetyCertificateOutlined />,
        access: 'admin',
        menu: true,
        component: () => import('./pages/admin-user'),
      },
      {
        path: 'normal-user',
        title: '保种员',
        icon: <UserOutlined />,
        access: 'admin',
        menu: true,
        component: () => import('./pages/normal-user'),
      },
      {
        path: 'salary-computed',
        title: '工资计算',
        icon: <CalculatorOutlined />,
        access: 'admin',
        menu: true,
        component: () => import('./pages/salary-computed'),
      },
      {
        path: 'salary-stats',
        title: '工资统计',
        icon: <BarChartOutlined />,
        access: 'admin',
        menu: true,
        component: () => import('./pages/salary-stats'),
      },
      {
        path: 'torrent-manage',
        title: '官种设置',
        icon: <FlagOutlined />,
        access: 'admin',
        menu: true,
        component: () => import('./pages/torrent-manage'),
      },
      {
        path: 'operation-history',
        title: '操作日志',
        icon: <HistoryOutlined />,
        access: 'admin',
        menu: true,
        component: () => import('./pages/operation-history'),
      },
      {
        path: 'data-sync',
        title: '数据同步',
        icon: <CloudSyncOutlined />,
        access: 'admin',
        menu: true,
        component: () => import('./pages/data-sync'),
      },
      {
        path: 'changelog',
        title: '更新日志',
        icon: <ReadOutlined />,
        access: 'member',
        menu: true,
        component: () => import('./pages/changelog'),
      },
    ],
  },
  { path: '*', title: '页面不存在', component: () => import('./pages/exception/404') },
]
