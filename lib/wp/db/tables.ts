/**
 * Table names for one site: WordPress's prefix rules (`wpdb::set_prefix`, `get_blog_prefix`).
 * Users and usermeta are global; every other table belongs to the site (blog) and carries
 * `{prefix}{blog_id}_` for blogs other than the main one on a multisite network.
 */
export interface TableNameOptions {
  prefix: string;
  blogId?: number;
  multisite?: boolean;
}

export class Tables {
  readonly basePrefix: string;
  readonly blogPrefix: string;
  readonly blogId: number;

  constructor({ prefix, blogId = 1, multisite = false }: TableNameOptions) {
    if (!/^[A-Za-z0-9_]*$/.test(prefix)) {
      throw new Error(`Invalid table prefix "${prefix}": only letters, digits and underscores are allowed (invalid_db_prefix).`);
    }
    this.basePrefix = prefix;
    this.blogId = blogId;
    this.blogPrefix = multisite && blogId > 1 ? `${prefix}${blogId}_` : prefix;
  }

  get users(): string { return `${this.basePrefix}users`; }
  get usermeta(): string { return `${this.basePrefix}usermeta`; }
  get posts(): string { return `${this.blogPrefix}posts`; }
  get postmeta(): string { return `${this.blogPrefix}postmeta`; }
  get options(): string { return `${this.blogPrefix}options`; }
  get comments(): string { return `${this.blogPrefix}comments`; }
  get commentmeta(): string { return `${this.blogPrefix}commentmeta`; }
  get terms(): string { return `${this.blogPrefix}terms`; }
  get termmeta(): string { return `${this.blogPrefix}termmeta`; }
  get termTaxonomy(): string { return `${this.blogPrefix}term_taxonomy`; }
  get termRelationships(): string { return `${this.blogPrefix}term_relationships`; }
  get sitemeta(): string { return `${this.basePrefix}sitemeta`; }

  /** Usermeta key of the user's roles and capabilities on this site: `{blog_prefix}capabilities`. */
  get capabilitiesKey(): string { return `${this.blogPrefix}capabilities`; }
  /** Option holding the role definitions: `{blog_prefix}user_roles`. */
  get userRolesOption(): string { return `${this.blogPrefix}user_roles`; }

  /** A plugin's own table, `{p}<plugin>_<name>`: the support desk's `svc_…`, the form service's `frm_…`. */
  plugin(plugin: string, name: string): string { return `${this.blogPrefix}${plugin}_${name}`; }
}
