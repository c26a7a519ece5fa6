/** The baseline: the smallest Express JSON route, to show what this machine and load generator can do. */
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/hello', (_req, res) => {
  res.json({ ok: true });
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
