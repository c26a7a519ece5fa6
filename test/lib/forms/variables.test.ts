/** `[field]` variables in redirect URLs and emails. */
import assert from 'node:assert/strict';
import { escapeHtml, fieldText, headerText, replaceDataVariables, urlEncode, valueAt } from '../../../lib/forms/variables';

const data = { name: 'Ada & <Co>', tags: ['a', 'b'], address: { city: 'Paris' }, 'first-name': 'Ada' };

describe('data variables', () => {
  it('replaces [field], [nested.key] and unknown names (empty), escaped for where they land', () => {
    assert.equal(replaceDataVariables('/t?n=[name]&c=[address.city]&x=[nope]', data, urlEncode), '/t?n=Ada%20%26%20%3CCo%3E&c=Paris&x=');
    assert.equal(replaceDataVariables('<p>[name]</p>', data, escapeHtml), '<p>Ada &amp; &lt;Co&gt;</p>');
    assert.equal(replaceDataVariables('Hi [first-name], [tags]', data, headerText), 'Hi Ada, a, b');
  });

  it('lists every field for [all], unless a field is itself named all', () => {
    assert.equal(replaceDataVariables('[all]', { a: '1', b: ['x', 'y'] }, escapeHtml, '<br>'), 'a: 1<br>b: x, y');
    assert.equal(replaceDataVariables('[all]', { all: 'mine' }, escapeHtml), 'mine');
  });

  it('finds nested values by bracket or dotted name, and never reaches the prototype', () => {
    assert.equal(valueAt(data, 'address[city]'), 'Paris');
    assert.equal(valueAt(data, 'address.city'), 'Paris');
    assert.equal(valueAt(data, 'tags.1'), 'b');
    assert.equal(valueAt(data, 'constructor'), undefined);
    assert.equal(valueAt(data, 'address.constructor'), undefined);
    assert.equal(replaceDataVariables('[constructor][__proto__]', data, urlEncode), '');
  });

  it('flattens header values to one line without tags', () => {
    assert.equal(headerText('Eve\r\nBcc: x@y.z <b>!</b>'), 'Eve Bcc: x@y.z !');
    assert.equal(fieldText({ a: ['1', '2'], b: '3' }), '1, 2, 3');
  });
});
