/**
 * A newcomer's first minute (docs/deploy.md): `/` answers as a WordPress front page does for API
 * discovery, with a small escaped page linking the demo; while the site opens, the server answers
 * WordPress-shaped JSON 503s with Retry-After; the missing-indexes notice stays off on a small site.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import request from 'supertest';
import { createApp } from '../../lib/app';
import { checkAtStartup } from '../../lib/cli/lifecycle';
import { seedDemoSite } from '../../lib/demo/seed';
import { FORM_POST_TYPE } from '../../lib/forms/settings';
import { createForm } from '../../lib/forms/store';
import { memoryLogger } from '../../lib/logger';
import { frontDoor } from '../../lib/observability/front-door';
import { Health } from '../../lib/observability/health';
import { NO_TRUSTED_PROXIES } from '../../lib/wp/http/trusted-proxies';
import { Site } from '../../lib/wp/site';
import { envFor, openFor } from '../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../harness/db';

describe('a newcomer\'s first minute', () => {
  let db: ScratchDatabase;
  let site: Site;

  before(async () => {
    db = await scratchDatabase();
    site = (await openFor(envFor(db.target, { WP_ENVIRONMENT_TYPE: 'local' }))).site;
    await seedDemoSite(site);
  });
  after(async () => {
    await site?.close();
    await db?.drop();
  });

  it('answers / with the REST discovery link and a small page that links the published forms, the REST index and the portal script', async () => {
    // The demo's contact form is there from the first start.
    const demo = await request(createApp(site)).get('/');
    assert.match(demo.text, /<a href="[^"]+\/frm\/embed\/\d+">Contact<\/a>/);
    const forms = () => site.db.knex(site.db.tables.posts).where({ post_type: FORM_POST_TYPE });
    await forms().update({ post_status: 'draft' });
    assert.match((await request(createApp(site)).get('/')).text, /No published form yet\./);
    await forms().update({ post_status: 'publish' });
    const id = await createForm(site, 1, { title: 'Contact <us>' });
    await createForm(site, 1, { title: 'Unfinished', status: 'draft' });
    const res = await request(createApp(site)).get('/');
    assert.equal(res.status, 200);
    assert.equal(res.headers.link, `<${await site.restUrl('/')}>; rel="https://api.w.org/"`);
    assert.match(res.headers['content-type'], /^text\/html; charset=UTF-8/);
    assert.ok(res.text.includes(`<a href="${await site.siteUrl()}/frm/embed/${id}">Contact &lt;us&gt;</a>`), res.text);
    assert.doesNotMatch(res.text, /Unfinished/);
    assert.match(res.text, /\/wp-content\/plugins\/svc\/assets\/js\/portal\.js/);
    assert.ok(res.text.includes(`<a href="${await site.restUrl('/')}">`));
    const head = await request(createApp(site)).head('/');
    assert.deepEqual([head.status, head.headers.link], [200, res.headers.link]);
  });

  it('escapes what the site names itself, and shows no user data', async () => {
    await site.options.update('blogname', '<img src=x onerror=alert(1)> & "Desk"');
    try {
      const res = await request(createApp(site)).get('/');
      assert.ok(res.text.includes('<h1>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Desk&quot;</h1>'), res.text);
      assert.doesNotMatch(res.text, /<img/);
      assert.doesNotMatch(res.text, /@example\.test/, 'no user\'s address');
    } finally {
      await site.options.update('blogname', 'Understudy Demo');
    }
  });

  it('answers 503 as WordPress-shaped JSON with Retry-After while the site opens, and health says live but not ready', async () => {
    const health = new Health(memoryLogger());
    const server = http.createServer(frontDoor({ trustedProxies: NO_TRUSTED_PROXIES, health }, () => null));
    try {
      const res = await request(server).get('/wp-json/support/v1/tickets');
      assert.equal(res.status, 503);
      assert.equal(res.headers['retry-after'], '1');
      assert.match(res.headers['content-type'], /^application\/json; charset=UTF-8/);
      assert.deepEqual(res.body, { code: 'understudy_starting', message: 'Understudy is starting. Try again in a moment.', data: { status: 503 } });
      assert.equal((await request(server).get('/-/health/live')).status, 200);
      const ready = await request(server).get('/-/health/ready');
      assert.deepEqual([ready.status, ready.body], [503, { status: 'starting' }]);
    } finally {
      server.close();
    }
  });

  it('leaves the missing-indexes notice out on a small desk such as the demo, and says the rest', async () => {
    const logger = memoryLogger();
    await checkAtStartup(site, logger);
    assert.deepEqual(logger.lines.filter((l) => /svc_\* indexes/.test(l.message)), []);
  });
});
