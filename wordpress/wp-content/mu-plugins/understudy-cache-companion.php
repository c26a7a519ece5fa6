<?php
/**
 * Plugin Name: Understudy cache companion
 * Description: Keeps WordPress's persistent object cache coherent with the writes Understudy makes over the same database: Understudy posts what each write changed, and WordPress's own cache-cleaning functions run for it.
 * Version: 1.0.0
 * Requires at least: 6.1
 * Requires PHP: 7.4
 *
 * Install: copy this one file into wp-content/mu-plugins/ (create the folder if needed). There is
 * nothing to configure: the key is derived from the site's salts, which Understudy reads from the
 * same wp-config.php. See docs/deploy.md, "The PHP companion".
 *
 * The route: POST /wp-json/understudy-companion/v1/invalidate (or ?rest_route=...), with headers
 *   X-Understudy-Timestamp: <Unix seconds>
 *   X-Understudy-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>\n<raw body>">
 * keyed with hex HMAC-SHA256("understudy-cache-companion", wp_salt('auth')). The body is JSON:
 *   {"posts":[{"id":1,"type":"post","parent":0}], "postMeta":{"1":["key"]}, "options":["name"],
 *    "users":[{"id":1,"logins":[],"emails":[],"nicenames":[]}], "userMeta":{"1":["key"]},
 *    "terms":[1], "comments":[1], "repeat":true}
 * Every field is optional. "repeat" marks changes sent before (Understudy's second pass a moment
 * after the write): the cache is cleaned again, but understudy_cache_invalidated does not fire again.
 * Replaying a signed request is harmless: invalidation is idempotent.
 */

defined( 'ABSPATH' ) || exit;

const UNDERSTUDY_COMPANION_NAMESPACE = 'understudy-companion/v1';
/** How far a request's timestamp may be from this server's clock, in seconds. */
const UNDERSTUDY_COMPANION_WINDOW = 300;
/** Separates this key from every other use of the auth salt. */
const UNDERSTUDY_COMPANION_KEY_LABEL = 'understudy-cache-companion';

add_action(
	'rest_api_init',
	function () {
		register_rest_route(
			UNDERSTUDY_COMPANION_NAMESPACE,
			'/invalidate',
			array(
				'methods'             => 'POST',
				'callback'            => 'understudy_companion_invalidate',
				'permission_callback' => 'understudy_companion_check_signature',
			)
		);
	}
);

/** The HMAC key, computed the same way by Understudy from the salts in wp-config.php. */
function understudy_companion_key() {
	return hash_hmac( 'sha256', UNDERSTUDY_COMPANION_KEY_LABEL, wp_salt( 'auth' ) );
}

/**
 * A request is Understudy's when its signature covers its timestamp and exact body, and the
 * timestamp is recent; anything else is refused before the body is used. WordPress has decoded a
 * JSON body by then (a malformed one got 400 rest_invalid_json before this check), but nothing
 * here reads it: the signature is over the raw bytes.
 */
function understudy_companion_check_signature( WP_REST_Request $request ) {
	$timestamp = (string) $request->get_header( 'x_understudy_timestamp' );
	$signature = (string) $request->get_header( 'x_understudy_signature' );
	$refused   = new WP_Error( 'understudy_companion_forbidden', 'The request is not signed by Understudy.', array( 'status' => 403 ) );

	if ( ! ctype_digit( $timestamp ) || abs( time() - (int) $timestamp ) > UNDERSTUDY_COMPANION_WINDOW ) {
		return $refused;
	}
	$expected = 'sha256=' . hash_hmac( 'sha256', $timestamp . "\n" . $request->get_body(), understudy_companion_key() );
	return hash_equals( $expected, $signature ) ? true : $refused;
}

/** Runs WordPress's own invalidation for everything the body names, then tells listeners. */
function understudy_companion_invalidate( WP_REST_Request $request ) {
	$changes = json_decode( $request->get_body(), true );
	if ( ! is_array( $changes ) ) {
		return new WP_Error( 'understudy_companion_invalid_body', 'The body is not a JSON object.', array( 'status' => 400 ) );
	}

	understudy_companion_clean_posts( understudy_companion_list( $changes, 'posts' ) );
	understudy_companion_clean_post_meta( array_keys( understudy_companion_list( $changes, 'postMeta' ) ) );
	understudy_companion_clean_options( understudy_companion_list( $changes, 'options' ) );
	understudy_companion_clean_users( understudy_companion_list( $changes, 'users' ) );
	understudy_companion_clean_user_meta( array_keys( understudy_companion_list( $changes, 'userMeta' ) ) );
	understudy_companion_clean_terms( understudy_companion_list( $changes, 'terms' ) );
	$comments = array_filter( array_map( 'absint', understudy_companion_list( $changes, 'comments' ) ) );
	if ( $comments ) {
		clean_comment_cache( $comments );
	}

	if ( empty( $changes['repeat'] ) ) {
		/**
		 * Fires after the cache has been cleaned for one of Understudy's writes: the hook for PHP code
		 * that must react to changes Understudy made (WordPress's save_post and friends do not fire).
		 * Once per write; again only when Understudy retries a call whose answer it did not get.
		 *
		 * @param array $changes The decoded body: posts, postMeta, options, users, userMeta, terms, comments.
		 */
		do_action( 'understudy_cache_invalidated', $changes );
	}

	return array( 'invalidated' => true );
}

function understudy_companion_list( array $changes, $field ) {
	return isset( $changes[ $field ] ) && is_array( $changes[ $field ] ) ? $changes[ $field ] : array();
}

/**
 * clean_post_cache() reads the post to clean it, so the cached copy goes first (it would be the one
 * read). A post that is gone (deleted) gets the same deletions without the action, which needs a post.
 */
function understudy_companion_clean_posts( array $posts ) {
	foreach ( $posts as $changed ) {
		$id = is_array( $changed ) && isset( $changed['id'] ) ? absint( $changed['id'] ) : 0;
		if ( ! $id ) {
			continue;
		}
		wp_cache_delete( $id, 'posts' );
		$post = get_post( $id );
		if ( $post ) {
			clean_post_cache( $post );
			continue;
		}
		wp_cache_delete( $id, 'post_meta' );
		clean_object_term_cache( $id, isset( $changed['type'] ) ? (string) $changed['type'] : 'post' );
		wp_cache_delete( 'wp_get_archives', 'general' );
		wp_cache_delete( 'all_page_ids', 'posts' );
		wp_cache_set_posts_last_changed();
	}
}

/** As update_metadata() does for posts; WordPress 6.1 also moves the posts' last_changed on every meta write. */
function understudy_companion_clean_post_meta( array $post_ids ) {
	$post_ids = array_filter( array_map( 'absint', $post_ids ) );
	foreach ( $post_ids as $id ) {
		wp_cache_delete( $id, 'post_meta' );
	}
	if ( $post_ids ) {
		wp_cache_set_posts_last_changed();
	}
}

/**
 * update_option() rewrites `alloptions` (autoloaded) or the option's own key (not autoloaded) and
 * takes the name out of `notoptions`. Not knowing which, every place is cleared; WordPress reloads
 * `alloptions` from the database on its next read.
 */
function understudy_companion_clean_options( array $names ) {
	$names = array_filter( array_map( 'strval', array_filter( $names, 'is_scalar' ) ) );
	if ( ! $names ) {
		return;
	}
	foreach ( $names as $name ) {
		wp_cache_delete( $name, 'options' );
	}
	wp_cache_delete( 'alloptions', 'options' );

	$notoptions = wp_cache_get( 'notoptions', 'options' );
	if ( is_array( $notoptions ) && array_intersect_key( $notoptions, array_flip( $names ) ) ) {
		wp_cache_set( 'notoptions', array_diff_key( $notoptions, array_flip( $names ) ), 'options' );
	}
}

/**
 * clean_user_cache() clears the keys of the user's current login, email and nicename; the old
 * values a write replaced are cleared here, since a stale key under them would still resolve.
 */
function understudy_companion_clean_users( array $users ) {
	$groups = array(
		'logins'    => 'userlogins',
		'emails'    => 'useremail',
		'nicenames' => 'userslugs',
	);
	foreach ( $users as $changed ) {
		$id = is_array( $changed ) && isset( $changed['id'] ) ? absint( $changed['id'] ) : 0;
		if ( ! $id ) {
			continue;
		}
		wp_cache_delete( $id, 'users' );
		foreach ( $groups as $field => $group ) {
			foreach ( understudy_companion_list( $changed, $field ) as $key ) {
				if ( is_scalar( $key ) ) {
					wp_cache_delete( (string) $key, $group );
				}
			}
		}
		$user = get_userdata( $id );
		if ( $user ) {
			clean_user_cache( $user );
		}
	}
}

function understudy_companion_clean_user_meta( array $user_ids ) {
	foreach ( array_filter( array_map( 'absint', $user_ids ) ) as $id ) {
		wp_cache_delete( $id, 'user_meta' );
	}
}

/** clean_term_cache() wants term IDs with their taxonomy (without one, it takes term_taxonomy IDs). */
function understudy_companion_clean_terms( array $term_ids ) {
	global $wpdb;
	$term_ids = array_filter( array_map( 'absint', $term_ids ) );
	if ( ! $term_ids ) {
		return;
	}
	$rows = $wpdb->get_results( "SELECT term_id, taxonomy FROM $wpdb->term_taxonomy WHERE term_id IN (" . implode( ',', $term_ids ) . ')' );
	$by_taxonomy = array();
	foreach ( $rows as $row ) {
		$by_taxonomy[ $row->taxonomy ][] = (int) $row->term_id;
	}
	foreach ( $by_taxonomy as $taxonomy => $ids ) {
		clean_term_cache( $ids, $taxonomy );
	}
	// A term that is gone has no taxonomy row left: its own key still goes.
	wp_cache_delete_multiple( $term_ids, 'terms' );
	if ( ! $by_taxonomy ) {
		wp_cache_set( 'last_changed', microtime(), 'terms' );
	}
}
