/** One link of a breadcrumb trail (GET /api/breadcrumbs and the <Breadcrumbs> of the screens). */
export interface Crumb {
  label: string;
  url: string;
}
