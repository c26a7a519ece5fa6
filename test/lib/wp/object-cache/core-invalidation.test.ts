/** What WordPress 6.1 core removes from its object cache for each kind of change. */
import assert from 'node:assert/strict';
import { WordPressChanges } from '../../../../lib/wp/changes';
import { coreInvalidation } from '../../../../lib/wp/object-cache/core-invalidation';

const pairs = (changes: WordPressChanges) => coreInvalidation(changes).keys.map((k) => `${k.group}:${k.key}`);

/** What _transition_post_status() deletes for a published post of `type`: the feeds' last-modified dates. */
const LAST_POST_TIMES = (type: string) => ['server', 'gmt', 'blog'].flatMap((tz) => [
  `timeinfo:lastpostmodified:${tz}`, `timeinfo:lastpostdate:${tz}`, `timeinfo:lastpostdate:${tz}:${type}`,
]);

describe('coreInvalidation', () => {
  it('a post: its row, its meta, its term relationships and the archives; posts and terms last_changed', () => {
    const result = coreInvalidation(new WordPressChanges().post(12, 'post').postMetaKey(12, '_edit_lock'));
    assert.deepEqual(result.keys.map((k) => `${k.group}:${k.key}`), [
      'posts:12', 'post_meta:12', 'general:wp_get_archives',
      'category_relationships:12', 'post_tag_relationships:12', 'post_format_relationships:12',
      ...LAST_POST_TIMES('post'),
    ]);
    assert.deepEqual(result.lastChanged, ['posts', 'terms']);
  });

  it('a plugin post type has the taxonomies the setting names; a page also its all_page_ids', () => {
    assert.deepEqual(pairs(new WordPressChanges().post(158, 'svc_ticket', 3)), ['posts:158', 'post_meta:158', 'general:wp_get_archives', ...LAST_POST_TIMES('svc_ticket')]);
    const named = coreInvalidation(new WordPressChanges().post(158, 'svc_ticket'), { svc_ticket: ['svc_topic'] });
    assert.ok(named.keys.some((k) => k.group === 'svc_topic_relationships' && k.key === '158'));
    assert.ok(pairs(new WordPressChanges().post(2, 'page')).includes('posts:all_page_ids'));
  });

  it('a plugin\'s taxonomies are added to core\'s: a post keeps its category, tag and format relationships', () => {
    const changes = new WordPressChanges().post(12, 'post').post(40, 'svc_doc');
    const keys = coreInvalidation(changes, { svc_doc: ['svc_doc_collection'], post: ['series'] }).keys.map((k) => `${k.group}:${k.key}`);
    assert.deepEqual(keys.filter((k) => k.includes('_relationships:')), [
      'category_relationships:12', 'post_tag_relationships:12', 'post_format_relationships:12', 'series_relationships:12',
      'svc_doc_collection_relationships:40',
    ]);
  });

  it('a post published, unpublished or changed while published: the last post dates of the feeds and sitemaps (timeinfo)', () => {
    const keys = pairs(new WordPressChanges().post(158, 'svc_doc').post(159, 'svc_doc').post(12, 'post'));
    assert.deepEqual(keys.filter((k) => k.startsWith('timeinfo:')), [...LAST_POST_TIMES('svc_doc'), ...LAST_POST_TIMES('post').filter((k) => k.endsWith(':post'))]);
  });

  it('post meta alone: the meta and posts last_changed, not the post row', () => {
    const result = coreInvalidation(new WordPressChanges().postMetaKey(158, '_svc_version'));
    assert.deepEqual(result.keys, [{ group: 'post_meta', key: '158' }]);
    assert.deepEqual(result.lastChanged, ['posts']);
  });

  it('options: alloptions, notoptions and each option key', () => {
    const result = coreInvalidation(new WordPressChanges().option('svc_settings').option('frm_options'));
    assert.deepEqual(result.keys.map((k) => `${k.group}:${k.key}`), ['options:alloptions', 'options:notoptions', 'options:svc_settings', 'options:frm_options']);
    assert.deepEqual(result.lastChanged, []);
  });

  it('a user by ID, every login, nicename and email given; user meta', () => {
    const changes = new WordPressChanges()
      .user(7, { login: 'agent', email: 'new@example.com', nicename: 'agent' })
      .user(7, { email: 'old@example.com' })
      .userMetaKey(7, 'first_name');
    assert.deepEqual(pairs(changes), [
      'users:7', 'userlogins:agent', 'userslugs:agent', 'useremail:new@example.com', 'useremail:old@example.com', 'user_meta:7',
    ]);
    assert.deepEqual(coreInvalidation(changes).lastChanged, []);
  });

  it('terms and comments with their last_changed; a comment also the comment feed\'s last modified date (timeinfo)', () => {
    const result = coreInvalidation(new WordPressChanges().term(4).comment(9).comment(10));
    assert.deepEqual(result.keys.map((k) => `${k.group}:${k.key}`), [
      'terms:4', 'comment:9', 'timeinfo:lastcommentmodified:server', 'timeinfo:lastcommentmodified:gmt', 'timeinfo:lastcommentmodified:blog', 'comment:10',
    ]);
    assert.deepEqual(result.lastChanged, ['terms', 'comment']);
  });
});
