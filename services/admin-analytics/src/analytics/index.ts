/**
 * The analytics figures (docs/product/admin.md ADM3, ADM8; docs/admin-analytics.md): read models pre-aggregated by
 * UTC day and
 * dimension (projector.ts), the Dashboard and Analytics tabs' routes (routes.ts), and the public page-view route
 * (pageviews.ts).
 */
export { projectAnalytics } from './projector.ts';
export { analyticsRouter } from './routes.ts';
export { publicAnalyticsRouter } from './pageviews.ts';
