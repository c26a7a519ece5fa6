/**
 * Route arguments over HTTP: WordPress's coercion and validation applied alike to the query, a JSON
 * body, a form-encoded body and a multipart body, the order in which those sources win
 * (JSON > body > query > URL > defaults), and PHP's parsing of names and methods with bodies.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { SampleOracle, basicAuth, openSampleOracle } from '../../../harness/sample-routes';
import { assertRestError, listen, rawRequest } from '../../../harness/wp-http';

describe('REST arguments over HTTP', function () {
  let oracle: SampleOracle;
  before(async () => { oracle = await openSampleOracle(); });
  after(async () => { await oracle.close(); });
  const get = (url: string) => request(oracle.app).get(url);
  const post = (url: string) => request(oracle.app).post(url).set('Authorization', basicAuth('agent1'));

  describe('coercion and defaults', () => {
    it('applies the declared defaults when nothing is sent', async () => {
      const res = await get('/wp-json/test/v1/things');
      assert.equal(res.status, 200);
      assert.deepEqual(
        { count: res.body.count, flag: res.body.flag, color: res.body.color, ids: res.body.ids, name: res.body.name },
        { count: 10, flag: false, color: 'red', ids: [], name: null },
      );
    });

    it('reads query strings as WordPress does: numeric integers, "1"/"true" booleans in any case, lists', async () => {
      const cases: Array<[string, Record<string, unknown>]> = [
        ['count=5', { count: 5 }],
        ['count=+7', { count: 7 }],
        ['count=1e1', { count: 10 }],
        ['count=2.0', { count: 2 }],
        ['flag=1', { flag: true }], ['flag=true', { flag: true }], ['flag=TRUE', { flag: true }], ['flag=True', { flag: true }],
        ['flag=0', { flag: false }], ['flag=false', { flag: false }], ['flag=FALSE', { flag: false }],
        ['color=green', { color: 'green' }],
        ['ids=1,2', { ids: [1, 2] }], ['ids=3%204', { ids: [3, 4] }], ['ids[]=5&ids[]=6', { ids: [5, 6] }], ['ids=', { ids: [] }],
      ];
      for (const [qs, want] of cases) {
        const res = await get(`/wp-json/test/v1/things?${qs}`);
        assert.equal(res.status, 200, `${qs}: ${res.text}`);
        for (const [k, v] of Object.entries(want)) assert.deepEqual(res.body[k], v, qs);
      }
    });

    it('refuses what WordPress refuses with 400 rest_invalid_param, params and details', async () => {
      const cases: Array<[string, string, string, string, unknown]> = [
        ['flag=yes', 'flag', 'rest_invalid_type', 'flag is not of type boolean.', { param: 'flag' }],
        ['flag=2', 'flag', 'rest_invalid_type', 'flag is not of type boolean.', { param: 'flag' }],
        ['count=1.5', 'count', 'rest_invalid_type', 'count is not of type integer.', { param: 'count' }],
        ['count=ten', 'count', 'rest_invalid_type', 'count is not of type integer.', { param: 'count' }],
        ['count=0', 'count', 'rest_out_of_bounds', 'count must be between 1 (inclusive) and 100 (inclusive)', null],
        ['count=101', 'count', 'rest_out_of_bounds', 'count must be between 1 (inclusive) and 100 (inclusive)', null],
        ['color=pink', 'color', 'rest_not_in_enum', 'color is not one of red, green, and blue.', null],
        ['ids=1,x', 'ids', 'rest_invalid_type', 'ids[1] is not of type integer.', { param: 'ids[1]' }],
      ];
      for (const [qs, param, code, message, data] of cases) {
        const body = assertRestError(await get(`/wp-json/test/v1/things?${qs}`), 400, 'rest_invalid_param', `Invalid parameter(s): ${param}`);
        assert.deepEqual(body.data, { status: 400, params: { [param]: message }, details: { [param]: { code, message, data } } }, qs);
      }
    });

    it('reports every invalid parameter at once', async () => {
      // Sent in declaration order: WordPress lists them in the order the request carries them.
      const body = assertRestError(await get('/wp-json/test/v1/things?count=0&flag=maybe&color=pink'), 400, 'rest_invalid_param');
      assert.equal(body.message, 'Invalid parameter(s): count, flag, color');
      assert.deepEqual(Object.keys(body.data.params), ['count', 'flag', 'color']);
      assert.deepEqual(Object.keys(body.data.details), ['count', 'flag', 'color']);
    });

    it('answers rest_missing_callback_param for required arguments, a JSON null counting as missing', async () => {
      const none = assertRestError(await post('/wp-json/test/v1/things'), 400, 'rest_missing_callback_param', 'Missing parameter(s): title, amount');
      assert.deepEqual(none.data, { status: 400, params: ['title', 'amount'] });
      const nulled = assertRestError(await post('/wp-json/test/v1/things').send({ title: null, amount: 3 }), 400, 'rest_missing_callback_param');
      assert.deepEqual(nulled.data.params, ['title']);
    });

    it('validates and coerces the same way from a JSON body, a form body and a multipart body', async () => {
      const want = { title: 'T', amount: 7, draft: false, user: 2 };
      const json = await post('/wp-json/test/v1/things').send({ title: 'T', amount: '7', draft: 'false' });
      assert.equal(json.status, 201, json.text);
      assert.deepEqual(json.body, want);
      const form = await post('/wp-json/test/v1/things').type('form').send('title=T&amount=7&draft=0');
      assert.deepEqual(form.body, want);
      const multipart = await post('/wp-json/test/v1/things').field('title', 'T').field('amount', '7').field('draft', 'false');
      assert.equal(multipart.status, 201, multipart.text);
      assert.deepEqual(multipart.body, want);
      const typed = await post('/wp-json/test/v1/things').send({ title: 5, amount: 7.5 });
      const body = assertRestError(typed, 400, 'rest_invalid_param', 'Invalid parameter(s): title, amount');
      assert.deepEqual(body.data.params, { title: 'title is not of type string.', amount: 'amount is not of type integer.' });
    });

    it('turns a URL parameter into an integer only because its schema says so', async () => {
      const res = await get('/wp-json/test/v1/things/007');
      assert.deepEqual(res.body, { id: 7, url_id: '007' });
      const echo = await get('/wp-json/test/v1/echo/0042');
      assert.equal(echo.body.slot, '0042');
    });
  });

  describe('sources', () => {
    it('lets JSON win over the form body, the form body over the query, the query over the URL', async () => {
      const url = '/wp-json/test/v1/echo/url';
      assert.equal((await get(url)).body.slot, 'url');
      assert.equal((await get(`${url}?slot=query`)).body.slot, 'query');
      assert.equal((await post(`${url}?slot=query`).type('form').send('slot=body')).body.slot, 'body');
      assert.equal((await post(`${url}?slot=query`).send({ slot: 'json' })).body.slot, 'json');
      const both = await post(`${url}?slot=query&n=1`).send({ slot: 'json' });
      assert.deepEqual([both.body.slot, both.body.n], ['json', 1], 'names missing from JSON still come from the query');
    });

    it('reads a JSON body on any method, even GET, and for any JSON media type', async () => {
      const onGet = await get('/wp-json/test/v1/echo/url?slot=query').set('Content-Type', 'application/json').send('{"slot":"json","n":"3"}');
      assert.deepEqual([onGet.body.slot, onGet.body.n], ['json', 3]);
      for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json', 'APPLICATION/JSON', 'application/json+oembed']) {
        const res = await post('/wp-json/test/v1/echo/url').set('Content-Type', type).send('{"slot":"json"}');
        assert.equal(res.body.slot, 'json', type);
      }
      for (const type of ['text/plain', 'application/jsonp', 'application/json-seq', 'application/json+foo']) {
        const res = await post('/wp-json/test/v1/echo/url').set('Content-Type', type).send('{"slot":"json"}');
        assert.equal(res.body.slot, 'url', type);
      }
    });

    it('takes a form body as PHP fills $_POST: on POST only, for form-encoded and multipart bodies', async () => {
      const url = '/wp-json/test/v1/echo/url';
      const server = await listen(oracle.app);
      try {
        const noType = await rawRequest(server.port, 'POST', url, {}, 'slot=body');
        assert.equal(JSON.parse(noType.body).slot, 'url', 'a POST body without a Content-Type is not parsed');
        const putNoType = await rawRequest(server.port, 'PUT', url, {}, 'slot=body');
        assert.equal(JSON.parse(putNoType.body).slot, 'body', 'a PUT body without a Content-Type counts as form-encoded');
        const putZero = await rawRequest(server.port, 'PUT', url, {}, '0');
        assert.equal(JSON.parse(putZero.body).slot, 'url', 'PHP calls the body "0" empty');
      } finally {
        await server.close();
      }
      const onGet = await get(url).type('form').send('slot=body');
      assert.equal(onGet.body.slot, 'url', 'GET does not read a body');
    });

    it('parses the body of PUT, PATCH and DELETE as WP_REST_Request::parse_body_params() does', async () => {
      const url = '/wp-json/test/v1/echo/url';
      for (const method of ['put', 'patch', 'delete'] as const) {
        const form = await request(oracle.app)[method](url).type('form').send('slot=body&n=4');
        assert.deepEqual([form.body.method, form.body.slot, form.body.n], [method.toUpperCase(), 'body', 4], method);
        const multipart = await request(oracle.app)[method](url).field('slot', 'body');
        assert.equal(multipart.body.slot, 'url', `${method}: PHP does not parse multipart bodies of ${method}`);
      }
    });

    it('parses names as PHP does: dots and spaces become underscores, brackets build arrays', async () => {
      const res = await get('/wp-json/test/v1/echo/x?a.b=1&c%20d=2&e[x]=3&e[y][]=4&e[y][]=5&f[]=6&f[]=7');
      assert.deepEqual(res.body.params.a_b, '1');
      assert.deepEqual(res.body.params.c_d, '2');
      assert.deepEqual(res.body.params.e, { x: '3', y: ['4', '5'] });
      assert.deepEqual(res.body.params.f, ['6', '7']);
    });

    it('reads booleans and integers from a form body of the overridden method', async () => {
      const res = await request(oracle.app).post('/wp-json/test/v1/echo/url?_method=PUT').type('form').send('on=true&n=12');
      assert.deepEqual([res.body.method, res.body.on, res.body.n], ['PUT', true, 12]);
    });
  });
});
