/**
 * Where the window stands when the page changes: a page opened from the menu or a link starts at
 * its top (the window kept the previous page's position: a page opened scrolled down, its filters
 * out of view); back and forward return to where the user was on that page (React Router's
 * ScrollRestoration, by path, so that a tab or a drawer opened through the query string does not
 * move the page).
 */
import { useLayoutEffect } from 'react';
import { ScrollRestoration, useLocation, useNavigationType } from 'react-router';

export function PageScroll() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  useLayoutEffect(() => {
    // after ScrollRestoration's own layout effect (it is this component's child, so its effect runs
    // first): a new visit wins over a position remembered for the path
    if (type !== 'POP') window.scrollTo(0, 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of page counts, not of its query
  }, [pathname]);
  return <ScrollRestoration getKey={(location) => location.pathname} />;
}
