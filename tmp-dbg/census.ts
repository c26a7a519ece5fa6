import { openSite } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { benchConfig, benchTarget } from '../bench/fixture';
import { deskOf } from '../lib/support/desk';
import { ticketLists } from '../lib/support/tickets/list';
import { ticketStatusCensus } from '../lib/support/tickets/store';
(async () => {
  const { site } = await openSite(benchConfig(benchTarget('mysql://root@127.0.0.1:3306/h_warm_bench')), { logger: memoryLogger() });
  const { live } = deskOf(site).get(ticketLists);
  await live.load();
  let t = performance.now();
  const db = await ticketStatusCensus(site.db);
  console.log('census sql ms', performance.now() - t);
  t = performance.now();
  const mine = live.index.census();
  console.log('census js ms', performance.now() - t);
  console.log(db, mine);
  await site.close();
})();
