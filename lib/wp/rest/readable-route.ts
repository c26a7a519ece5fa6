/**
 * A WordPress route pattern as people read it: the key metrics, request logs, proxy routing and
 * replay results name a REST route by.
 */

/** `/support/v1/tickets/(?P<id>[\d]+)` → `/support/v1/tickets/{id}`: named groups become `{name}`. */
export function readableRoute(fullRoute: string): string {
  let out = '';
  for (let i = 0; i < fullRoute.length; i++) {
    const named = /^\(\?P?<(\w+)>/.exec(fullRoute.slice(i));
    if (!named) {
      out += fullRoute[i];
      continue;
    }
    out += `{${named[1]}}`;
    let depth = 0;
    for (; i < fullRoute.length; i++) {
      if (fullRoute[i] === '\\') i++;
      else if (fullRoute[i] === '(') depth++;
      else if (fullRoute[i] === ')' && --depth === 0) break;
    }
  }
  return out;
}
