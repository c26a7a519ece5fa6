/**
 * How the REST server shapes an answer: `_envelope`, `_fields`, `_jsonp`, `_pretty`, pagination
 * headers and links, and the answers without a body (204, null, HEAD).
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { API, ITEMS, SampleOracle, basicAuth, openSampleOracle } from '../../../harness/sample-routes';
import { asText, assertCacheable, assertNoCache, assertRestError, assertRestHeaders, exchange, statusMessage } from '../../../harness/wp-http';

const ITEMS_URL = `${API}/test/v1/items`;
const API_LINK = `<${API}/>; rel="https://api.w.org/"`;

describe('REST answers: envelope, fields, JSONP, pagination', function () {
  let oracle: SampleOracle;
  before(async () => { oracle = await openSampleOracle(); });
  after(async () => { await oracle.close(); });
  const get = (url: string) => request(oracle.app).get(url);

  describe('_envelope', () => {
    it('wraps a success in {body, status, headers} and moves the route headers inside', async () => {
      const res = await get('/wp-json/test/v1/things?_envelope').set('Authorization', basicAuth('agent1'));
      assert.equal(res.status, 200);
      assertRestHeaders(res);
      assert.deepEqual(Object.keys(res.body), ['body', 'status', 'headers']);
      assert.equal(res.body.status, 200);
      assert.deepEqual(res.body.headers, { Allow: 'GET, POST' });
      assert.equal(res.body.body.user, 2);
      assert.equal(res.headers.allow, undefined, 'Allow travels in the envelope, as captured');
      assertNoCache(res);
    });

    it('answers an error with HTTP 200 and the real status inside, as captured', async () => {
      const captured = exchange('_envelope on error');
      const res = await get('/wp-json/test/v1/things/1?_envelope=1').set('X-HTTP-Method-Override', 'DELETE');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } },
        status: 401,
        headers: { Allow: 'GET' },
      });
      assert.deepEqual(Object.keys(JSON.parse(captured.response.body as string)), Object.keys(res.body));
      assertCacheable(res);
      const noRoute = await get('/wp-json/nope?_envelope');
      assert.equal(noRoute.text, '{"body":{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}},"status":404,"headers":[]}');
    });

    it('keeps pagination headers, a 201 status and an empty body in the envelope', async () => {
      const page = await get('/wp-json/test/v1/items?page=2&_envelope');
      assert.deepEqual(page.body.headers, {
        'X-WP-Total': '5', 'X-WP-TotalPages': '3',
        Link: `<${ITEMS_URL}?page=1&_envelope>; rel="prev", <${ITEMS_URL}?page=3&_envelope>; rel="next"`,
        Allow: 'GET',
      });
      assert.equal(page.headers['x-wp-total'], undefined);
      assert.equal(page.headers.link, API_LINK);
      const created = await request(oracle.app).post('/wp-json/test/v1/things?_envelope').set('Authorization', basicAuth('agent1')).send({ title: 't', amount: 1 });
      assert.equal(created.status, 200);
      assert.equal(created.body.status, 201);
      const empty = await get('/wp-json/test/v1/nothing?_envelope');
      assert.equal(empty.text, '{"body":null,"status":200,"headers":{"Allow":"GET"}}');
      const noContent = await get('/wp-json/test/v1/no-content?_envelope');
      assert.deepEqual(noContent.body, { body: { ignored: true }, status: 204, headers: { Allow: 'DELETE, GET' } });
    });
  });

  describe('_fields', () => {
    it('keeps the named members in the data\'s own order', async () => {
      const res = await get('/wp-json/test/v1/things?_fields=color,count');
      assert.equal(res.text, '{"count":10,"color":"red"}');
      const spaced = await get('/wp-json/test/v1/things?_fields=%20color%20,%20flag');
      assert.equal(spaced.text, '{"flag":false,"color":"red"}');
    });

    it('filters each item of a list and follows dot paths', async () => {
      const res = await get('/wp-json/test/v1/items?_fields=id,title.rendered,meta.size');
      assert.deepEqual(res.body, ITEMS.slice(0, 2).map((i) => ({ id: i.id, title: { rendered: i.title.rendered }, meta: { size: i.meta.size } })));
      assert.equal(res.headers['x-wp-total'], '5', 'headers are not filtered');
    });

    it('accepts the list form and ignores an empty list', async () => {
      const list = await get('/wp-json/test/v1/items?_fields[]=id&_fields[]=tags');
      assert.deepEqual(list.body, [{ id: 1, tags: [1, 10] }, { id: 2, tags: [2, 20] }]);
      const empty = await get('/wp-json/test/v1/items?_fields=');
      assert.deepEqual(empty.body, ITEMS.slice(0, 2));
    });

    it('keeps only named indexes of a list under a dot path, as PHP intersects arrays', async () => {
      const res = await get('/wp-json/test/v1/items?_fields=id,tags.rendered');
      assert.deepEqual(res.body, [{ id: 1, tags: [] }, { id: 2, tags: [] }]);
      const index = await get('/wp-json/test/v1/items?_fields=tags.0');
      assert.deepEqual(index.body, [{ tags: [1] }, { tags: [2] }]);
    });

    it('stops reading the list at a sub-field of a field already kept whole (WordPress\'s `break 2`)', async () => {
      const res = await get('/wp-json/test/v1/items?_fields=title,title.raw,id');
      assert.deepEqual(res.body, ITEMS.slice(0, 2).map((i) => ({ title: i.title })));
    });

    it('reads _fields from any parameter source, and never filters errors', async () => {
      const fromJson = await request(oracle.app).post('/wp-json/test/v1/things').set('Authorization', basicAuth('agent1'))
        .send({ title: 'x', amount: 2, _fields: 'amount' });
      assert.deepEqual(fromJson.body, { amount: 2 });
      const error = await get('/wp-json/test/v1/things?count=0&_fields=code');
      const body = assertRestError(error, 400, 'rest_invalid_param');
      assert.ok(body.data.params);
    });
  });

  describe('_jsonp', () => {
    it('wraps the JSON in /**/cb(...) as JavaScript, as captured', async () => {
      const res = await get('/wp-json/test/v1/things?_jsonp=cb.x_1&_fields=count').buffer(true).parse(asText);
      assert.equal(res.status, 200);
      assertRestHeaders(res, { jsonp: true });
      assert.equal(res.body, '/**/cb.x_1({"count":10})');
      assert.ok((exchange('_jsonp callback').response.body as string).startsWith('/**/cb({'));
      const error = await get('/wp-json/nope?_jsonp=cb').buffer(true).parse(asText);
      assert.equal(error.status, 404);
      assert.equal(error.body, '/**/cb({"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}})');
    });

    it('refuses an invalid callback before authenticating or dispatching: 400 {code, message} only', async () => {
      for (const cb of ['a(b', 'alert%281%29', 'caf%C3%A9', 'x[]']) {
        const res = await request(oracle.app).post(`/wp-json/test/v1/things?_jsonp=${cb}`).set('Origin', 'https://o.example')
          .set('Authorization', basicAuth('agent1')).send({ title: 't', amount: 1 }).buffer(true).parse(asText);
        assert.equal(res.status, 400, cb);
        assertRestHeaders(res, { jsonp: true });
        assert.equal(res.body, '{"code":"rest_callback_invalid","message":"Invalid JSONP callback function."}');
        assert.equal(res.headers['access-control-allow-origin'], undefined, 'no CORS headers');
        assert.equal(res.headers.allow, undefined);
        assertCacheable(res);
      }
      const asList = await get('/wp-json/test/v1/things?_jsonp[]=cb').buffer(true).parse(asText);
      assert.equal(asList.status, 400);
    });

    it('treats an empty (PHP-falsy) callback as no JSONP at all', async () => {
      for (const cb of ['', '0']) {
        const res = await get(`/wp-json/test/v1/things?_jsonp=${cb}&_fields=count`);
        assertRestHeaders(res);
        assert.equal(res.text, '{"count":10}');
      }
    });
  });

  describe('_pretty', () => {
    it('indents with four spaces, from the query or a JSON body', async () => {
      const res = await get('/wp-json/test/v1/things?_pretty&_fields=count,ids');
      assert.equal(res.text, '{\n    "count": 10,\n    "ids": []\n}');
      const fromJson = await request(oracle.app).post('/wp-json/test/v1/echo/x?_fields=slot').send({ _pretty: null });
      assert.equal(fromJson.text, '{\n    "slot": "x"\n}');
    });
  });

  describe('pagination', () => {
    it('sends X-WP-Total, X-WP-TotalPages and a next link that replaces the api.w.org Link', async () => {
      const res = await get('/wp-json/test/v1/items');
      assert.equal(res.headers['x-wp-total'], '5');
      assert.equal(res.headers['x-wp-totalpages'], '3');
      assert.equal(res.headers.link, `<${ITEMS_URL}?page=2>; rel="next"`);
      assert.deepEqual(res.body.map((i: { id: number }) => i.id), [1, 2]);
    });

    it('links prev and next from a middle page, prev only from the last, and clamps prev beyond the end', async () => {
      const middle = await get('/wp-json/test/v1/items?page=2');
      assert.equal(middle.headers.link, `<${ITEMS_URL}?page=1>; rel="prev", <${ITEMS_URL}?page=3>; rel="next"`);
      const last = await get('/wp-json/test/v1/items?page=3');
      assert.equal(last.headers.link, `<${ITEMS_URL}?page=2>; rel="prev"`);
      const beyond = await get('/wp-json/test/v1/items?page=9');
      assert.equal(beyond.headers.link, `<${ITEMS_URL}?page=3>; rel="prev"`);
      assert.deepEqual(beyond.body, []);
    });

    it('keeps the api.w.org Link when everything fits on one page', async () => {
      const res = await get('/wp-json/test/v1/items?per_page=5');
      assert.equal(res.headers['x-wp-totalpages'], '1');
      assert.equal(res.headers.link, API_LINK);
    });

    it('keeps every query parameter, PHP-encoded and in the client\'s order, with page replaced in place', async () => {
      const res = await get('/wp-json/test/v1/items?page=2&search=a%20b%2Fc*~&per_page=2');
      assert.equal(res.headers.link,
        `<${ITEMS_URL}?page=1&search=a+b%2Fc%2A%7E&per_page=2>; rel="prev", <${ITEMS_URL}?page=3&search=a+b%2Fc%2A%7E&per_page=2>; rel="next"`);
      const viaRestRoute = await get('/?rest_route=/test/v1/items&page=2');
      assert.equal(viaRestRoute.headers.link,
        `<${ITEMS_URL}?rest_route=%2Ftest%2Fv1%2Fitems&page=1>; rel="prev", <${ITEMS_URL}?rest_route=%2Ftest%2Fv1%2Fitems&page=3>; rel="next"`);
    });
  });

  describe('answers without a body', () => {
    it('sends no body for a 204 even when the handler returned data', async () => {
      const res = await request(oracle.app).delete('/wp-json/test/v1/no-content').buffer(true).parse(asText);
      assert.equal(res.status, 204);
      assert.equal(res.body, '');
      assert.equal(res.headers['content-type'], 'application/json; charset=UTF-8');
      assert.equal(res.headers.allow, 'DELETE, GET');
    });

    it('sends 200 with an empty body for a null (or no) result', async () => {
      for (const url of ['/wp-json/test/v1/nothing', '/wp-json/test/v1/undefined']) {
        const res = await get(url).buffer(true).parse(asText);
        assert.equal(res.status, 200, url);
        assert.equal(res.body, '', url);
        assertRestHeaders(res);
      }
    });

    it('sends a raw body as it is, with the route\'s headers and the server\'s', async () => {
      const res = await get('/wp-json/test/v1/raw?_fields=x').buffer(true).parse(asText);
      assert.equal(res.status, 202);
      assert.equal(res.body, 'raw bytes/é');
      assert.equal(res.headers['content-type'], 'text/plain; charset=UTF-8');
      assert.equal(res.headers['content-disposition'], 'attachment; filename="a.txt"');
      assert.equal(res.headers['x-robots-tag'], 'noindex');
      assert.equal(res.headers.link, `<${API}/>; rel="https://api.w.org/"`);
      assertCacheable(res);
      const signedIn = await get('/wp-json/test/v1/raw').set('Authorization', basicAuth('agent1')).set('Origin', 'https://o.example');
      assertNoCache(signedIn);
      assert.equal(signedIn.headers['access-control-allow-origin'], 'https://o.example');
      const head = await request(oracle.app).head('/wp-json/test/v1/raw');
      assert.equal(head.status, 202);
      assert.equal(head.text, undefined);
    });

    it('sends the status a handler chose', async () => {
      const res = await request(oracle.app).post('/wp-json/test/v1/things').set('Authorization', basicAuth('agent1')).send({ title: 'x', amount: 1 });
      assert.equal(res.status, 201);
      assert.equal(statusMessage(res), 'Created');
    });
  });
});
