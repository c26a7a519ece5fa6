/** Understudy really listening on 127.0.0.1 (port 0) over the oracle site, for replays over HTTP. */
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { OracleSite, openOracle } from './oracle';

export interface RunningOracle {
  oracle: OracleSite;
  url: string;
  close(): Promise<void>;
}

export async function startOracleServer(): Promise<RunningOracle> {
  const oracle = await openOracle();
  const server = http.createServer(oracle.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    oracle,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await oracle.close();
    },
  };
}
