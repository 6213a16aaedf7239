import type { AnchorHTMLAttributes } from 'react';
import { Link } from 'react-router';

/**
 * An in-app link (react-router's Link): plain clicks navigate without a reload; modified clicks, other buttons
 * and links with a target behave like normal links.
 */
export function AppLink({ href, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return <Link to={href} {...rest} />;
}
