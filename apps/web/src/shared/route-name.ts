/**
 * The name of the current route (docs/product.md#screens-and-routes), for titles and navigation highlighting.
 */
import { createContext, useContext } from 'react';
import type { RouteName } from './routes.ts';

export const RouteNameContext = createContext<RouteName | null>(null);

export function useRouteName(): RouteName | null {
  return useContext(RouteNameContext);
}
