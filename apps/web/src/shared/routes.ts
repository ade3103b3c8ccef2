// The routes are the contract's: the server's links into the app are made from the same table.
export { aboutPath, pathTo, ROUTES, type RouteName } from '@e-wallet/contract/routes';
