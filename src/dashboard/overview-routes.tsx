/** The dashboard's first page: the overview of the last 30 Algiers days (src/data/overview.ts). */
import { Hono } from 'hono'
import { OverviewPage } from '../../views/dashboard/overview-page.js'
import { getOverview } from '../data/overview.js'
import { type DashEnv, dashContext } from './context.js'
import { mailNotice } from './mail-notice.js'

export const overviewRoutes = new Hono<DashEnv>()

overviewRoutes.get('/', async (c) => {
  const overview = await getOverview(c.get('db'), c.get('clock')())
  return c.html(
    <OverviewPage ctx={dashContext(c)} overview={overview} mailNotice={mailNotice(c)} />,
  )
})
