import { openSite } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { benchConfig, benchTarget } from '../bench/fixture';
import { docsHoldingWords } from '../lib/support/docs/store';
(async () => {
  const { site } = await openSite(benchConfig(benchTarget('mysql://root@127.0.0.1:3306/h_warm_bench_docs')), { logger: memoryLogger() });
  for (const words of [['password'], ['reset', 'password'], ['instal'], ['webhook'], ['widget', 'showing']]) {
    const t = performance.now();
    const rows = await docsHoldingWords(site.db, words, null, 50);
    console.log(words.join(' '), rows.length, (performance.now() - t).toFixed(0), 'ms');
  }
  await site.close();
})();
